"""
Webhook verification: the Standard Webhooks v1 check of packages/sdk (the server's signer), with hmac and hashlib.

    webhook-signature: v1,<base64 HMAC-SHA256(key, f"{webhook-id}.{webhook-timestamp}.{body}")> [space …]

The key is the base64 part of the ``whsec_…`` secret. Also JobWaiter, which lets ``add_and_wait`` resolve from a
verified ``job.completed``/``job.failed`` delivery instead of polling.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Dict, Mapping, Optional, Sequence, Union

from .errors import MemoryTimeoutError

WEBHOOK_SECRET_PREFIX = "whsec_"
DEFAULT_TOLERANCE_SECONDS = 5 * 60


class WebhookVerificationError(Exception):
    pass


@dataclass(frozen=True)
class VerifiedWebhook:
    id: str
    timestamp: datetime
    #: The parsed body: ``{"type", "timestamp", "data"}``.
    payload: Any


def _header(headers: Mapping[str, Any], name: str) -> Optional[str]:
    for k, v in headers.items():
        if k.lower() == name:
            return v[0] if isinstance(v, (list, tuple)) else v
    return None


def _b64(s: str) -> bytes:
    try:
        return base64.b64decode(s, validate=True)
    except (binascii.Error, ValueError):
        return b""


def _key(secret: str) -> bytes:
    raw = _b64(secret[len(WEBHOOK_SECRET_PREFIX):] if secret.startswith(WEBHOOK_SECRET_PREFIX) else secret)
    if not 24 <= len(raw) <= 64:
        raise WebhookVerificationError("the webhook secret is not a whsec_ secret of 24–64 bytes")
    return raw


def sign_webhook(secrets: Union[str, Sequence[str]], id: str, timestamp: int, body: Union[str, bytes]) -> str:
    """The ``webhook-signature`` header value: one ``v1,<sig>`` per secret, space-separated (for tests)."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    signed = f"{id}.{timestamp}.".encode("utf-8") + data
    secret_list = [secrets] if isinstance(secrets, str) else list(secrets)
    return " ".join("v1," + base64.b64encode(hmac.new(_key(s), signed, hashlib.sha256).digest()).decode("ascii") for s in secret_list)


def verify_webhook(
    secret_or_secrets: Union[str, Sequence[str]],
    headers: Mapping[str, Any],
    raw_body: Union[str, bytes],
    *,
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> VerifiedWebhook:
    """
    Checks a delivery and returns its parsed body, or raises WebhookVerificationError. Pass the raw body exactly as
    received (text or bytes). ``secret_or_secrets`` may list several secrets; any one matching is enough.
    """
    id = _header(headers, "webhook-id")
    ts = _header(headers, "webhook-timestamp")
    sig_header = _header(headers, "webhook-signature")
    if not id or not ts or not sig_header:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
    if not re.fullmatch(r"\d{1,12}", ts):
        raise WebhookVerificationError("webhook-timestamp is not a number of seconds")
    now_seconds = int(time.time() if now is None else now)
    if abs(now_seconds - int(ts)) > tolerance_seconds:
        raise WebhookVerificationError("webhook-timestamp is outside the tolerance")
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else raw_body
    signed = f"{id}.{ts}.".encode("utf-8") + body
    secrets = [secret_or_secrets] if isinstance(secret_or_secrets, str) else list(secret_or_secrets)
    expected = [hmac.new(_key(s), signed, hashlib.sha256).digest() for s in secrets]
    offered = []
    for part in sig_header.split(" "):
        version, _, sig = part.partition(",")
        if version == "v1" and sig:
            offered.append(_b64(sig))
    if not any(hmac.compare_digest(got, want) for got in offered for want in expected):
        raise WebhookVerificationError("no signature matches")
    try:
        payload = json.loads(body.decode("utf-8"))
    except ValueError:
        raise WebhookVerificationError("the body is not JSON") from None
    return VerifiedWebhook(id=id, timestamp=datetime.fromtimestamp(int(ts), tz=timezone.utc), payload=payload)


class JobWaiter:
    """
    Resolves waits for jobs from webhook deliveries: hand every verified payload to ``deliver`` (in your webhook
    handler, any thread), pass the waiter to ``add_and_wait(waiter=…)``. Events that arrive before the wait are kept.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._arrived: Dict[str, Dict[str, Any]] = {}

    def deliver(self, payload: Any) -> bool:
        """Takes a verified delivery's payload; True when it was a job event."""
        if not isinstance(payload, dict) or payload.get("type") not in ("job.completed", "job.failed"):
            return False
        data = payload.get("data")
        if not isinstance(data, dict) or not isinstance(data.get("job_id"), str):
            return False
        with self._cond:
            self._arrived[data["job_id"]] = data
            self._cond.notify_all()
        return True

    def wait(self, job_id: str, timeout: float) -> Dict[str, Any]:
        """The job's ``job.completed``/``job.failed`` data, or MemoryTimeoutError after ``timeout`` seconds."""
        with self._cond:
            if not self._cond.wait_for(lambda: job_id in self._arrived, timeout):
                raise MemoryTimeoutError(f"no webhook for job {job_id} within {timeout} s")
            return self._arrived.pop(job_id)
