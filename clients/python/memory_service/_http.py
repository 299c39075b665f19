"""
The transport under every operation, as the TypeScript client's (packages/client/src/http.ts): the base URL and
``Authorization: ApiKey …``, one ``Idempotency-Key`` per call reused by all its retries, retries with exponential
backoff on 429 and 503 (and on network errors when the call is safe to repeat) honouring ``Retry-After``,
problem+json answers raised as MemoryApiError, and the response envelope's ``data`` returned. Standard library only
(urllib); ``send_request`` is the seam tests replace.
"""
from __future__ import annotations

import email.utils
import json
import random
import re
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Tuple

from .errors import MemoryApiError

#: (method, url, headers, body, timeout) -> (status, headers with lower-case names, body bytes). Raises OSError on a
#: network failure.
SendRequest = Callable[[str, str, Mapping[str, str], Optional[bytes], float], Tuple[int, Mapping[str, str], bytes]]

RETRY_STATUSES = frozenset({429, 503})
ENVELOPE_KEYS = frozenset({"data", "request_id", "timestamp"})


def urllib_send(method: str, url: str, headers: Mapping[str, str], body: Optional[bytes], timeout: float) -> Tuple[int, Mapping[str, str], bytes]:
    """The default ``send_request``: one HTTP exchange with urllib; non-2xx answers are returned, not raised."""
    req = urllib.request.Request(url, data=body, method=method, headers=dict(headers))
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            return res.status, {k.lower(): v for k, v in res.headers.items()}, res.read()
    except urllib.error.HTTPError as e:
        with e:
            return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """``Retry-After`` as seconds (a number of seconds or an HTTP date), or None."""
    if not value:
        return None
    v = value.strip()
    if re.fullmatch(r"\d+(\.\d+)?", v):
        return float(v)
    try:
        at = email.utils.parsedate_to_datetime(v)
    except (TypeError, ValueError, IndexError):
        return None
    if at is None:
        return None
    return max(0.0, at.timestamp() - (time.time() if now is None else now))


def unwrap(body: Any) -> Any:
    """The envelope ``{data, request_id, timestamp}`` gives its ``data``; any other body (retrieve's has a ``data``
    field too) stays whole."""
    if isinstance(body, dict) and "data" in body and all(k in ENVELOPE_KEYS for k in body):
        return body["data"]
    return body


@dataclass
class Call:
    method: str
    #: The path with its parameters, e.g. ``/v1/memories/jobs/{job_id}``.
    path: str
    params: Mapping[str, str] = field(default_factory=dict)
    query: Mapping[str, Any] = field(default_factory=dict)
    body: Any = None
    #: The operation honours ``Idempotency-Key``.
    idempotent: bool = False
    headers: Mapping[str, str] = field(default_factory=dict)


class Transport:
    def __init__(
        self,
        base_url: str,
        api_key: Optional[str] = None,
        *,
        max_retries: int = 3,
        retry_delay: float = 0.5,
        max_retry_delay: float = 30.0,
        timeout: float = 30.0,
        headers: Optional[Mapping[str, str]] = None,
        idempotency_key: Optional[Callable[[], str]] = None,
        send_request: Optional[SendRequest] = None,
        sleep: Optional[Callable[[float], None]] = None,
    ) -> None:
        self.base = re.sub(r"/v1$", "", base_url.rstrip("/"))
        self.api_key = api_key
        self.max_retries = max_retries
        self.retry_delay = retry_delay
        self.max_retry_delay = max_retry_delay
        self.timeout = timeout
        self.headers = dict(headers or {})
        self.idempotency_key = idempotency_key or (lambda: str(uuid.uuid4()))
        self.send_request: SendRequest = send_request or urllib_send
        self.sleep = sleep or time.sleep

    def url(self, call: Call) -> str:
        def param(m: "re.Match[str]") -> str:
            name = m.group(1)
            if name not in call.params:
                raise TypeError(f"missing path parameter {name}")
            return urllib.parse.quote(str(call.params[name]), safe="")

        path = re.sub(r"\{([^}]+)\}", param, call.path)
        query = {k: _query_value(v) for k, v in call.query.items() if v is not None}
        qs = urllib.parse.urlencode(query)
        return f"{self.base}{path}{'?' + qs if qs else ''}"

    def send(self, call: Call, *, idempotency_key: Optional[str] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """Sends one call (with its retries) and returns the envelope's ``data``, or the body when it has none."""
        return unwrap(self.send_raw(call, idempotency_key=idempotency_key, headers=headers))

    def send_raw(self, call: Call, *, idempotency_key: Optional[str] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        """Sends one call (with its retries) and returns the parsed JSON body as the server sent it."""
        h: dict[str, str] = {"accept": "application/json, application/problem+json", **{k.lower(): v for k, v in self.headers.items()}}
        if self.api_key:
            h["authorization"] = f"ApiKey {self.api_key}"
        data: Optional[bytes] = None
        if call.body is not None:
            h["content-type"] = "application/json"
            data = json.dumps(call.body).encode("utf-8")
        if call.idempotent:
            h["idempotency-key"] = idempotency_key or self.idempotency_key()
        h.update({k.lower(): v for k, v in call.headers.items()})
        h.update({k.lower(): v for k, v in (headers or {}).items()})
        repeatable = call.method in ("GET", "PUT", "DELETE") or "idempotency-key" in h
        url = self.url(call)
        attempt = 0
        while True:
            try:
                status, res_headers, raw = self.send_request(call.method, url, h, data, self.timeout)
            except OSError:
                if not repeatable or attempt >= self.max_retries:
                    raise
                self.sleep(self.backoff(attempt))
                attempt += 1
                continue
            if 200 <= status < 300:
                return _read_json(raw)
            retry_after = parse_retry_after(res_headers.get("retry-after"))
            if status in RETRY_STATUSES and attempt < self.max_retries:
                self.sleep(self.backoff(attempt, retry_after))
                attempt += 1
                continue
            try:
                problem = _read_json(raw)
            except ValueError:
                problem = None
            raise MemoryApiError(status, problem if isinstance(problem, dict) else {}, retry_after)

    def backoff(self, attempt: int, retry_after: Optional[float] = None) -> float:
        """Seconds before retry ``attempt + 1``: ``Retry-After`` when given, else exponential with jitter; capped."""
        if retry_after is not None:
            return min(self.max_retry_delay, retry_after)
        base = self.retry_delay * 2**attempt
        return min(self.max_retry_delay, base / 2 + random.random() * (base / 2))


def _query_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _read_json(raw: bytes) -> Any:
    return json.loads(raw.decode("utf-8")) if raw else None
