"""
The client against a live server (tests/integration/python-client.test.ts runs these in `npm test`): MEMORY_URL and
MEMORY_API_KEY (a fresh tenant's key); MEMORY_AGENT_KEY and MEMORY_UUI (an agent key and an approved user's
X-Service-UUI token) for the universal store. Without MEMORY_URL they are skipped, unless MEMORY_REQUIRE_LIVE=1,
which makes a missing setting an error.
"""
from __future__ import annotations

import os
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator, List

import pytest

from memory_service import JobWaiter, MemoryApiError, MemoryClient, Message, WebhookVerificationError, verify_webhook


def setting(name: str) -> str:
    value = os.environ.get(name)
    if value:
        return value
    if os.environ.get("MEMORY_REQUIRE_LIVE") == "1":
        pytest.fail(f"{name} is not set (MEMORY_REQUIRE_LIVE=1)")
    pytest.skip(f"{name} is not set: no live server")


@pytest.fixture(scope="module")
def client() -> MemoryClient:
    return MemoryClient(setting("MEMORY_URL"), setting("MEMORY_API_KEY"))


@pytest.fixture
def user() -> str:
    return f"py-{uuid.uuid4().hex[:12]}"


def say(content: str) -> List[Message]:
    return [{"role": "user", "content": content}]


def test_adds_waits_retrieves_lists_gives_feedback_exports_and_deletes(client: MemoryClient, user: str) -> None:
    first = client.memories.add_and_wait(user, say("I live in Lisbon and I work as a nurse."))
    assert first["add"]["status"] == "queued"
    assert first["job"] is not None and first["job"]["status"] == "completed"
    client.memories.add_and_wait(user, say("My favourite drink is green tea."))

    found = client.memories.retrieve(user, "Where does the user live?")
    assert "Lisbon" in found["system_prompt_addition"]
    assert any("Lisbon" in m["content"] for m in found["data"])

    listed = list(client.memories.iterate(user, limit=1))
    assert len(listed) >= 2
    assert [m["id"] for m in listed] == [m["id"] for m in client.memories.list(user, limit=100)["items"]]

    key = f"fb-{uuid.uuid4().hex}"
    retrieval_id = found["retrieval_id"]
    assert retrieval_id
    once = client.feedback.send(retrieval_id, "used_successfully", idempotency_key=key)
    assert client.feedback.send(retrieval_id, "used_successfully", idempotency_key=key) == once
    with pytest.raises(MemoryApiError) as again:
        client.feedback.send(retrieval_id, "used_successfully")
    assert (again.value.status, again.value.code) == (409, "conflict")

    bundle = client.memories.export(user)
    assert bundle["external_user_id"] == user and len(bundle["memories"]) >= 2

    assert client.memories.delete(listed[0]["id"])["id"] == listed[0]["id"]
    assert listed[0]["id"] not in [m["id"] for m in client.memories.iterate(user)]

    direct = client.memories.create(user, "The user plays the oboe.", "expertise", metadata={"channel": "py"})
    assert (direct["outcome"], direct["status"]) == ("created", "active")
    edited = client.memories.update(direct["id"], importance=0.9)
    assert [r["action"] for r in edited["revisions"]] == ["created", "edited"]
    assert client.memories.get(direct["id"])["importance_score"] == 0.9
    assert [m["id"] for m in client.memories.list(user, metadata_filter='{"channel":"py"}')["items"]] == [direct["id"]]

    receipt = client.memories.erase_user(user)
    assert receipt["already_erased"] is False and receipt["counts"]["end_user"] == 1 and receipt["counts"]["memories"] >= 2
    assert client.memories.erase_user(user)["receipt_id"] == receipt["receipt_id"]
    with pytest.raises(MemoryApiError) as gone:
        client.memories.export(user)
    assert (gone.value.status, gone.value.code) == (404, "not_found")


def test_raises_errors_with_the_problem_code(client: MemoryClient, user: str) -> None:
    wrong = MemoryClient(client.http.base, "mem_sk_wrong")
    with pytest.raises(MemoryApiError) as unauthorized:
        wrong.memories.list(user)
    assert (unauthorized.value.status, unauthorized.value.code) == (401, "unauthorized")
    with pytest.raises(MemoryApiError) as invalid:
        client.memories.retrieve(user, "x", limit=0)
    assert (invalid.value.status, invalid.value.code) == (422, "validation_failed")
    assert invalid.value.request_id


def test_manages_service_writers_and_reads_reviews(client: MemoryClient) -> None:
    service_key = f"crm-{uuid.uuid4().hex[:8]}"
    writer = client.writers.create(service_key, "CRM", {"default_priority": 10})
    assert writer["service_key"] == service_key
    assert service_key in [w["service_key"] for w in client.writers.list()]
    assert client.reviews.list()["items"] == []
    assert list(client.reviews.iterate()) == []


class Receiver:
    """A webhook receiver on 127.0.0.1 that verifies each delivery and feeds JobWaiter."""

    def __init__(self) -> None:
        self.secret = ""
        self.waiter = JobWaiter()
        self.refused: List[str] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                try:
                    receiver.waiter.deliver(verify_webhook(receiver.secret, dict(self.headers.items()), raw).payload)
                    self.send_response(200)
                except WebhookVerificationError as e:
                    receiver.refused.append(str(e))
                    self.send_response(400)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/hook"
        threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True).start()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.httpd.shutdown()
    r.httpd.server_close()


def test_add_and_wait_resolves_from_a_verified_webhook(client: MemoryClient, user: str, receiver: Receiver) -> None:
    endpoint = client.webhooks.create(receiver.url, ["job.completed", "job.failed"])
    assert endpoint["secret"].startswith("whsec_")
    receiver.secret = endpoint["secret"]
    try:
        result = client.memories.add_and_wait(user, say("I have a dog called Rex."), waiter=receiver.waiter, timeout=30)
        assert result["job"] is not None and result["job"]["status"] == "completed"
        assert receiver.refused == []
    finally:
        client.webhooks.delete(endpoint["id"])


def test_universal_add_and_retrieve_with_an_agent_key_and_x_service_uui() -> None:
    agent = MemoryClient(setting("MEMORY_URL"), setting("MEMORY_AGENT_KEY"))
    uui = setting("MEMORY_UUI")
    result = agent.universal.add_and_wait(uui, say("I live in Porto."))
    assert result["add"]["status"] == "queued"
    assert result["job"] is not None and result["job"]["status"] == "completed"
    assert "Porto" in str(agent.universal.retrieve(uui, "Where does the user live?"))
    with pytest.raises(MemoryApiError) as refused:
        agent.universal.retrieve("mem_uui_wrong", "x")
    assert refused.value.status == 401
