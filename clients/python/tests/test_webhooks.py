"""Webhook verification as packages/sdk signs (Standard Webhooks v1), and JobWaiter."""
from __future__ import annotations

import base64
import threading
import time

import pytest

from memory_service import JobWaiter, MemoryTimeoutError, WebhookVerificationError, sign_webhook, verify_webhook

SECRET = "whsec_" + base64.b64encode(b"k" * 32).decode()
OTHER = "whsec_" + base64.b64encode(b"o" * 32).decode()
BODY = '{"type":"job.completed","timestamp":"2026-01-01T00:00:00Z","data":{"job_id":"j1","status":"completed"}}'


def headers(secrets, ts: int, body: str = BODY, id: str = "msg_1"):  # type: ignore[no-untyped-def]
    return {"Webhook-Id": id, "webhook-timestamp": str(ts), "webhook-signature": sign_webhook(secrets, id, ts, body)}


def test_matches_a_signature_made_by_the_server_signer() -> None:
    # The value packages/sdk's signWebhook gives for this secret, id, timestamp and body (node:crypto).
    sig = sign_webhook(SECRET, "msg_1", 1700000000, "{}")
    assert sig == "v1,3sOcjp9LSFloZNG4djSBtbk6gHDplP0wungD5l+W7DU="


def test_accepts_a_valid_delivery_and_returns_the_payload() -> None:
    now = int(time.time())
    v = verify_webhook(SECRET, headers(SECRET, now), BODY)
    assert v.id == "msg_1" and v.payload["data"]["job_id"] == "j1" and int(v.timestamp.timestamp()) == now
    assert verify_webhook(SECRET, headers(SECRET, now), BODY.encode()).payload == v.payload


def test_accepts_any_of_several_signatures_or_secrets() -> None:
    now = int(time.time())
    assert verify_webhook(SECRET, headers([OTHER, SECRET], now), BODY).id == "msg_1"
    assert verify_webhook([OTHER, SECRET], headers(SECRET, now), BODY).id == "msg_1"


@pytest.mark.parametrize("mutate", ["body", "secret", "old", "future", "missing", "version"])
def test_refuses_what_does_not_match(mutate: str) -> None:
    now = int(time.time())
    h = headers(SECRET, now)
    body, secret = BODY, SECRET
    if mutate == "body":
        body = BODY + " "
    elif mutate == "secret":
        secret = OTHER
    elif mutate == "old":
        h = headers(SECRET, now - 301)
    elif mutate == "future":
        h = headers(SECRET, now + 301)
    elif mutate == "missing":
        del h["webhook-signature"]
    elif mutate == "version":
        h["webhook-signature"] = h["webhook-signature"].replace("v1,", "v2,")
    with pytest.raises(WebhookVerificationError):
        verify_webhook(secret, h, body)


def test_tolerance_and_clock_are_settable() -> None:
    h = headers(SECRET, 1000)
    assert verify_webhook(SECRET, h, BODY, now=1000 + 500, tolerance_seconds=600).id == "msg_1"


def test_refuses_a_secret_of_the_wrong_size() -> None:
    with pytest.raises(WebhookVerificationError):
        verify_webhook("whsec_" + base64.b64encode(b"short").decode(), headers(SECRET, int(time.time())), BODY)


def test_job_waiter_resolves_from_deliveries_before_or_during_the_wait() -> None:
    waiter = JobWaiter()
    assert not waiter.deliver({"type": "memory.created", "data": {}})
    assert waiter.deliver({"type": "job.completed", "data": {"job_id": "early", "status": "completed"}})
    assert waiter.wait("early", 0.1)["status"] == "completed"
    threading.Timer(0.05, lambda: waiter.deliver({"type": "job.failed", "data": {"job_id": "late", "status": "failed"}})).start()
    assert waiter.wait("late", 5)["status"] == "failed"
    with pytest.raises(MemoryTimeoutError):
        waiter.wait("never", 0.05)
