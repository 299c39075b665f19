"""
MemoryClient: the memory service API's main flows, grouped as the API is (memories, jobs, feedback, writers, keys,
reviews, webhooks, agents, link tokens, universal memories, usage, health), mirroring @memory/client. The transport
(_http.py) authenticates, retries and unwraps the envelope; answers are the JSON as dicts.
"""
from __future__ import annotations

import time
import uuid
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, cast

from ._http import Call, SendRequest, Transport
from .errors import MemoryTimeoutError
from .types import AddAndWaitResult, AddResult, Job, Message, Page, RetrieveResult
from .webhooks import JobWaiter

#: The statuses after which a job no longer changes.
FINAL_JOB_STATUSES = ("completed", "processed", "failed", "dead")


def wait_for_job(job_id: str, get: Callable[[], Job], *, timeout: float = 120.0, poll_interval: float = 0.25,
                 waiter: Optional[JobWaiter] = None, sleep: Callable[[float], None] = time.sleep) -> Job:
    """Polls ``get`` until the job's status is final (or waits for its webhook, then reads it once)."""
    if waiter is not None:
        waiter.wait(job_id, timeout)
        return get()
    deadline = time.monotonic() + timeout
    interval = poll_interval
    while True:
        job = get()
        if job.get("status") in FINAL_JOB_STATUSES:
            return job
        if time.monotonic() + interval > deadline:
            raise MemoryTimeoutError(f"job {job_id} is still {job.get('status')} after {timeout} s")
        sleep(interval)
        interval = min(2.0, interval * 1.5)


def each_item(fetch_page: Callable[[Optional[str]], Page], cursor: Optional[str] = None, items: str = "items") -> Iterator[Any]:
    """Every item of every page of a cursor-paged list: ``next_cursor`` is passed back until it is null."""
    while True:
        page = fetch_page(cursor)
        yield from cast(Dict[str, Any], page)[items]
        cursor = page.get("next_cursor")
        if not cursor:
            return


class _Group:
    def __init__(self, client: "MemoryClient") -> None:
        self._c = client

    def _send(self, method: str, path: str, *, params: Optional[Mapping[str, str]] = None, query: Optional[Mapping[str, Any]] = None,
              body: Any = None, idempotent: bool = False, idempotency_key: Optional[str] = None, headers: Optional[Mapping[str, str]] = None) -> Any:
        call = Call(method, path, params=params or {}, query=query or {}, body=body, idempotent=idempotent, headers=headers or {})
        return self._c.http.send(call, idempotency_key=idempotency_key)


class Memories(_Group):
    def add(self, external_user_id: str, messages: Sequence[Message], *, idempotency_key: Optional[str] = None, **fields: Any) -> AddResult:
        """Queues extraction from a conversation; an ``Idempotency-Key`` is generated (or given) and reused by retries."""
        body = {"external_user_id": external_user_id, "messages": list(messages), **fields}
        return self._send("POST", "/v1/memories/add", body=body, idempotent=True, idempotency_key=idempotency_key)

    def add_and_wait(self, external_user_id: str, messages: Sequence[Message], *, timeout: float = 120.0, poll_interval: float = 0.25,
                     waiter: Optional[JobWaiter] = None, idempotency_key: Optional[str] = None, **fields: Any) -> AddAndWaitResult:
        """Adds, then waits for the job to end: polling, or from a webhook with ``waiter``."""
        add = self.add(external_user_id, messages, idempotency_key=idempotency_key, **fields)
        job_id = add.get("job_id")
        job = None if job_id is None else self._c.jobs.wait(job_id, timeout=timeout, poll_interval=poll_interval, waiter=waiter)
        return {"add": add, "job": job}

    def retrieve(self, external_user_id: str, query: str, **fields: Any) -> RetrieveResult:
        """The memories relevant to ``query`` and the prompt block (``system_prompt_addition``)."""
        return self._send("POST", "/v1/memories/retrieve", body={"external_user_id": external_user_id, "query": query, **fields})

    def list(self, external_user_id: str, *, limit: Optional[int] = None, cursor: Optional[str] = None, **query: Any) -> Page:
        """One page of a user's memories, newest first."""
        return self._send("GET", "/v1/memories", query={"external_user_id": external_user_id, "limit": limit, "cursor": cursor, **query})

    def iterate(self, external_user_id: str, *, limit: Optional[int] = None, cursor: Optional[str] = None, **query: Any) -> Iterator[Dict[str, Any]]:
        """Every memory of the user, page after page."""
        return each_item(lambda c: self.list(external_user_id, limit=limit, cursor=c, **query), cursor)

    def create(self, external_user_id: str, content: str, category: str, *, idempotency_key: Optional[str] = None, **fields: Any) -> Dict[str, Any]:
        """Writes a memory directly, without extraction (``outcome``: created or reinforced); the conflict rules apply."""
        body = {"external_user_id": external_user_id, "content": content, "category": category, **fields}
        return self._send("POST", "/v1/memories", body=body, idempotent=True, idempotency_key=idempotency_key)

    def get(self, memory_id: str) -> Dict[str, Any]:
        """One memory with its provenance, metadata and revision history."""
        return self._send("GET", "/v1/memories/{memory_id}", params={"memory_id": memory_id})

    def update(self, memory_id: str, **fields: Any) -> Dict[str, Any]:
        """Edits ``content``, ``category`` or ``importance``: a new revision in the ledger."""
        return self._send("PATCH", "/v1/memories/{memory_id}", params={"memory_id": memory_id}, body=fields)

    def delete(self, memory_id: str) -> Dict[str, Any]:
        return self._send("DELETE", "/v1/memories/{memory_id}", params={"memory_id": memory_id})

    def export(self, external_user_id: str) -> Dict[str, Any]:
        """Everything stored about one end user (GET /v1/users/me/export)."""
        return self._send("GET", "/v1/users/me/export", query={"external_user_id": external_user_id})

    def erase_user(self, external_user_id: str) -> Dict[str, Any]:
        """Erases everything held about one end user; returns the receipt (DELETE /v1/users/{external_user_id}, docs/erasure.md)."""
        return self._send("DELETE", "/v1/users/{external_user_id}", params={"external_user_id": external_user_id})


class Jobs(_Group):
    def get(self, job_id: str) -> Job:
        return self._send("GET", "/v1/memories/jobs/{job_id}", params={"job_id": job_id})

    def wait(self, job_id: str, *, timeout: float = 120.0, poll_interval: float = 0.25, waiter: Optional[JobWaiter] = None) -> Job:
        """Returns when the job is completed, processed, failed or dead; MemoryTimeoutError after ``timeout`` seconds."""
        return wait_for_job(job_id, lambda: self.get(job_id), timeout=timeout, poll_interval=poll_interval, waiter=waiter, sleep=self._c.http.sleep)


class Feedback(_Group):
    def send(self, retrieval_id: str, outcome: str, *, idempotency_key: Optional[str] = None, **fields: Any) -> Dict[str, Any]:
        body = {"retrieval_id": retrieval_id, "outcome": outcome, **fields}
        return self._send("POST", "/v1/memories/retrieval-feedback", body=body, idempotent=True, idempotency_key=idempotency_key)


class Writers(_Group):
    def list(self) -> List[Dict[str, Any]]:
        return self._send("GET", "/v1/tenant/service-writers")

    def create(self, service_key: str, display_name: str, authority_rules: Mapping[str, Any], **fields: Any) -> Dict[str, Any]:
        body = {"service_key": service_key, "display_name": display_name, "authority_rules": dict(authority_rules), **fields}
        return self._send("POST", "/v1/tenant/service-writers", body=body)


class Keys(_Group):
    def list(self) -> List[Dict[str, Any]]:
        return self._send("GET", "/v1/tenant/api-keys")

    def create(self, name: str, **fields: Any) -> Dict[str, Any]:
        """The answer carries the new ``api_key``, once."""
        return self._send("POST", "/v1/tenant/api-keys", body={"name": name, **fields})

    def revoke(self, key_id: str) -> Dict[str, Any]:
        return self._send("DELETE", "/v1/tenant/api-keys/{key_id}", params={"key_id": key_id})


class Reviews(_Group):
    def list(self, *, cursor: Optional[str] = None, **query: Any) -> Page:
        return self._send("GET", "/v1/tenant/reviews", query={"cursor": cursor, **query})

    def iterate(self, *, cursor: Optional[str] = None, **query: Any) -> Iterator[Dict[str, Any]]:
        return each_item(lambda c: self.list(cursor=c, **query), cursor)

    def get(self, review_id: str) -> Dict[str, Any]:
        return self._send("GET", "/v1/tenant/reviews/{review_id}", params={"review_id": review_id})

    def resolve(self, review_id: str, chosen_memory_id: str, **fields: Any) -> Dict[str, Any]:
        body = {"chosen_memory_id": chosen_memory_id, **fields}
        return self._send("POST", "/v1/tenant/reviews/{review_id}/resolve", params={"review_id": review_id}, body=body)

    def decide(self, review_id: str, action: str, **fields: Any) -> Dict[str, Any]:
        """A held memory (kind ``pending_write``): ``action`` is ``approve`` (``content=`` edits it) or ``reject``."""
        body = {"action": action, **fields}
        return self._send("POST", "/v1/tenant/reviews/{review_id}/resolve", params={"review_id": review_id}, body=body)


class Webhooks(_Group):
    def list(self) -> List[Dict[str, Any]]:
        return self._send("GET", "/v1/tenant/webhooks")

    def create(self, url: str, event_types: Sequence[str], **fields: Any) -> Dict[str, Any]:
        """The answer carries the signing ``secret``, once."""
        return self._send("POST", "/v1/tenant/webhooks", body={"url": url, "event_types": list(event_types), **fields})

    def get(self, endpoint_id: str) -> Dict[str, Any]:
        return self._send("GET", "/v1/tenant/webhooks/{endpoint_id}", params={"endpoint_id": endpoint_id})

    def delete(self, endpoint_id: str) -> Dict[str, Any]:
        return self._send("DELETE", "/v1/tenant/webhooks/{endpoint_id}", params={"endpoint_id": endpoint_id})


class Agents(_Group):
    def create(self, name: str, **fields: Any) -> Dict[str, Any]:
        """Registers a global agent (tenant key); the answer carries its ``raw_agent_api_key``, once."""
        return self._send("POST", "/v1/agents/global", body={"name": name, **fields})

    def get(self, agent_id: str) -> Dict[str, Any]:
        return self._send("GET", "/v1/agents/global/{agent_id}", params={"agent_id": agent_id})

    def exchange_link_token(self, link_token: str) -> Dict[str, Any]:
        """With an agent key: trades an approved link token for the user's ``uui_token`` (X-Service-UUI)."""
        return self._send("POST", "/v1/agents/passport-token", body={"link_token": link_token})


class LinkTokens(_Group):
    def create(self, agent_id: str, external_user_id: str, **fields: Any) -> Dict[str, Any]:
        body = {"agent_id": agent_id, "external_user_id": external_user_id, **fields}
        return self._send("POST", "/v1/tenant/memory-passport/link-token", body=body)


class Universal(_Group):
    """The universal store, with an agent key as ``api_key`` and the user's X-Service-UUI token per call."""

    def add(self, uui: str, messages: Sequence[Message], *, idempotency_key: Optional[str] = None, **fields: Any) -> AddResult:
        """``idempotency_key`` (a body field here) is generated when absent, so retries replay the first answer."""
        body = {"messages": list(messages), **fields, "idempotency_key": idempotency_key or fields.get("idempotency_key") or str(uuid.uuid4())}
        return self._send("POST", "/v1/universal/memories/add", body=body, headers={"x-service-uui": uui})

    def add_and_wait(self, uui: str, messages: Sequence[Message], *, timeout: float = 120.0, poll_interval: float = 0.25,
                     idempotency_key: Optional[str] = None, **fields: Any) -> AddAndWaitResult:
        add = self.add(uui, messages, idempotency_key=idempotency_key, **fields)
        job_id = add.get("job_id")
        job = None if job_id is None else wait_for_job(
            job_id, lambda: self.get_job(uui, job_id), timeout=timeout, poll_interval=poll_interval, sleep=self._c.http.sleep)
        return {"add": add, "job": job}

    def get_job(self, uui: str, job_id: str) -> Job:
        return self._send("GET", "/v1/universal/memories/jobs/{job_id}", params={"job_id": job_id}, headers={"x-service-uui": uui})

    def retrieve(self, uui: str, query: str, **fields: Any) -> Dict[str, Any]:
        return self._send("POST", "/v1/universal/memories/retrieve", body={"query": query, **fields}, headers={"x-service-uui": uui})


class Usage(_Group):
    def get(self) -> Dict[str, Any]:
        return self._send("GET", "/v1/tenant/usage")


class Health(_Group):
    def live(self) -> Dict[str, Any]:
        return self._send("GET", "/v1/health")


class MemoryClient:
    """
    ``MemoryClient(base_url, api_key)``: a tenant key (``mem_sk_…``), or an agent key (``mem_ak_…``) for the universal
    endpoints and the link-token exchange. Retries 429/503 (honouring Retry-After) ``max_retries`` times; errors are
    MemoryApiError with the problem's ``code``.
    """

    def __init__(self, base_url: str, api_key: Optional[str] = None, *, max_retries: int = 3, retry_delay: float = 0.5,
                 max_retry_delay: float = 30.0, timeout: float = 30.0, headers: Optional[Mapping[str, str]] = None,
                 idempotency_key: Optional[Callable[[], str]] = None, send_request: Optional[SendRequest] = None,
                 sleep: Optional[Callable[[float], None]] = None) -> None:
        self.http = Transport(base_url, api_key, max_retries=max_retries, retry_delay=retry_delay, max_retry_delay=max_retry_delay,
                              timeout=timeout, headers=headers, idempotency_key=idempotency_key, send_request=send_request, sleep=sleep)
        self.memories = Memories(self)
        self.jobs = Jobs(self)
        self.feedback = Feedback(self)
        self.writers = Writers(self)
        self.keys = Keys(self)
        self.reviews = Reviews(self)
        self.webhooks = Webhooks(self)
        self.agents = Agents(self)
        self.link_tokens = LinkTokens(self)
        self.universal = Universal(self)
        self.usage = Usage(self)
        self.health = Health(self)
