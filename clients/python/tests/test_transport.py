"""The transport against a scripted local HTTP server: envelope unwrapping, idempotency keys reused by retries,
backoff on 429/503 honouring Retry-After, problem+json errors, pagination, waiting for jobs."""
from __future__ import annotations

from typing import Iterator, List

import pytest
from fake_server import FakeServer, envelope

from memory_service import MemoryApiError, MemoryClient, MemoryTimeoutError, Message, parse_retry_after


@pytest.fixture
def server() -> Iterator[FakeServer]:
    s = FakeServer()
    yield s
    s.close()


@pytest.fixture
def slept() -> List[float]:
    return []


@pytest.fixture
def client(server: FakeServer, slept: List[float]) -> MemoryClient:
    return MemoryClient(server.url + "/v1/", "mem_sk_test", sleep=slept.append, retry_delay=0.1)


MESSAGES: List[Message] = [{"role": "user", "content": "I live in Lisbon."}]


def test_unwraps_the_envelope_and_sends_the_key(server: FakeServer, client: MemoryClient) -> None:
    server.answer(202, envelope({"job_id": "j1", "status": "queued"}))
    assert client.memories.add("u1", MESSAGES) == {"job_id": "j1", "status": "queued"}
    req = server.requests[0]
    assert (req["method"], req["path"]) == ("POST", "/v1/memories/add")
    assert req["headers"]["authorization"] == "ApiKey mem_sk_test"
    assert req["body"] == {"external_user_id": "u1", "messages": MESSAGES}


def test_keeps_bodies_that_are_not_exactly_the_envelope(server: FakeServer, client: MemoryClient) -> None:
    body = {"data": [{"id": "m1"}], "system_prompt_addition": "block", "retrieval_id": "r1", "request_id": "x", "timestamp": "t"}
    server.answer(200, body)
    assert client.memories.retrieve("u1", "where?") == body


def test_reuses_one_idempotency_key_across_retries_and_honours_retry_after(server: FakeServer, client: MemoryClient, slept: List[float]) -> None:
    server.answer(503, {"code": "unavailable"}, {"retry-after": "2"}).answer(429, {"code": "rate_limited"}).answer(202, envelope({"job_id": None, "status": "L1"}))
    assert client.memories.add("u1", MESSAGES)["status"] == "L1"
    keys = [r["headers"]["idempotency-key"] for r in server.requests]
    assert len(keys) == 3 and len(set(keys)) == 1 and keys[0]
    assert slept[0] == 2.0
    assert 0.05 <= slept[1] <= 0.2
    server.answer(202, envelope({"job_id": None, "status": "L1"}))
    client.memories.add("u1", MESSAGES)
    assert server.requests[3]["headers"]["idempotency-key"] != keys[0]


def test_an_explicit_idempotency_key_is_sent(server: FakeServer, client: MemoryClient) -> None:
    server.answer(200, envelope({"id": "f1"}))
    client.feedback.send("r1", "used_successfully", idempotency_key="fb-1")
    assert server.requests[0]["headers"]["idempotency-key"] == "fb-1"


def test_gives_up_after_max_retries_with_the_problem(server: FakeServer, slept: List[float]) -> None:
    c = MemoryClient(server.url, "k", max_retries=2, sleep=slept.append)
    for _ in range(3):
        server.answer(429, {"code": "rate_limited", "detail": "slow down"}, {"retry-after": "1"})
    with pytest.raises(MemoryApiError) as e:
        c.usage.get()
    assert (e.value.status, e.value.code, e.value.retry_after_seconds) == (429, "rate_limited", 1.0)
    assert len(server.requests) == 3 and slept == [1.0, 1.0]


def test_problem_json_becomes_an_error_with_its_code(server: FakeServer, client: MemoryClient) -> None:
    problem = {"type": "about:blank", "title": "Unprocessable", "status": 422, "detail": "limit too small", "code": "validation_failed",
               "request_id": "req_9", "errors": [{"path": "limit"}]}
    server.answer(422, problem, {"content-type": "application/problem+json"})
    with pytest.raises(MemoryApiError) as e:
        client.memories.retrieve("u1", "x", limit=0)
    err = e.value
    assert (err.status, err.code, err.detail, err.request_id) == (422, "validation_failed", "limit too small", "req_9")
    assert err.problem["errors"] == [{"path": "limit"}]
    assert "422 validation_failed" in str(err)
    server.answer(500, b"not json")
    with pytest.raises(MemoryApiError) as e2:
        client.usage.get()
    assert e2.value.code == "http_500"


def test_does_not_retry_a_network_error_on_a_post_without_a_key(slept: List[float]) -> None:
    calls: List[str] = []

    def broken(method, url, headers, body, timeout):  # type: ignore[no-untyped-def]
        calls.append(method)
        raise ConnectionRefusedError()

    c = MemoryClient("http://x", "k", send_request=broken, sleep=slept.append)
    with pytest.raises(OSError):
        c.memories.retrieve("u", "q")
    assert calls == ["POST"]
    calls.clear()
    with pytest.raises(OSError):
        c.memories.list("u")
    assert calls == ["GET"] * 4


def test_iterates_pages_and_encodes_paths_and_queries(server: FakeServer, client: MemoryClient) -> None:
    server.answer(200, envelope({"items": [{"id": "a"}], "next_cursor": "c2"})).answer(200, envelope({"items": [{"id": "b"}], "next_cursor": None}))
    assert [m["id"] for m in client.memories.iterate("user/1", limit=1)] == ["a", "b"]
    assert server.requests[0]["path"] == "/v1/memories?external_user_id=user%2F1&limit=1"
    assert server.requests[1]["path"] == "/v1/memories?external_user_id=user%2F1&limit=1&cursor=c2"
    server.answer(200, envelope({"id": "m 1"}))
    client.memories.delete("m 1")
    assert server.requests[2]["path"] == "/v1/memories/m%201"


def test_add_and_wait_polls_until_final(server: FakeServer, client: MemoryClient, slept: List[float]) -> None:
    server.answer(202, envelope({"job_id": "j1", "status": "queued"}))
    server.answer(200, envelope({"id": "j1", "status": "queued"})).answer(200, envelope({"id": "j1", "status": "running"}))
    server.answer(200, envelope({"id": "j1", "status": "completed"}))
    result = client.memories.add_and_wait("u1", MESSAGES)
    assert result["job"] == {"id": "j1", "status": "completed"}
    assert [r["path"] for r in server.requests[1:]] == ["/v1/memories/jobs/j1"] * 3
    assert slept == [0.25, 0.375]
    server.answer(202, envelope({"job_id": None, "status": "passthrough"}))
    assert client.memories.add_and_wait("u1", MESSAGES)["job"] is None


def test_a_wait_times_out(server: FakeServer, client: MemoryClient) -> None:
    server.answer(200, envelope({"id": "j1", "status": "running"}))
    with pytest.raises(MemoryTimeoutError):
        client.jobs.wait("j1", timeout=0.1, poll_interval=0.2)


def test_universal_calls_carry_the_uui_header_and_an_idempotency_key(server: FakeServer, client: MemoryClient) -> None:
    server.answer(202, envelope({"job_id": None, "status": "L2"})).answer(200, {"data": [], "system_prompt_addition": ""})
    client.universal.add("mem_uui_x", MESSAGES)
    client.universal.retrieve("mem_uui_x", "where?")
    assert all(r["headers"]["x-service-uui"] == "mem_uui_x" for r in server.requests)
    assert server.requests[0]["body"]["idempotency_key"]


def test_parses_retry_after_dates() -> None:
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0) == 10.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after("1.5") == 1.5
