"""The errors the client raises: the API's problem details (RFC 9457) with their stable ``code``, and timeouts."""
from __future__ import annotations

from typing import Any, Mapping, Optional


class MemoryApiError(Exception):
    """A non-2xx answer from the API. ``code`` is the problem's stable code (``validation_failed``, ``PROV_409``, …)."""

    def __init__(self, status: int, problem: Mapping[str, Any], retry_after_seconds: Optional[float] = None) -> None:
        code = problem.get("code")
        self.status: int = status
        self.code: str = code if isinstance(code, str) else f"http_{status}"
        detail = problem.get("detail")
        self.detail: str = detail if isinstance(detail, str) else ""
        title = problem.get("title")
        self.title: str = title if isinstance(title, str) else ""
        request_id = problem.get("request_id")
        self.request_id: Optional[str] = request_id if isinstance(request_id, str) else None
        #: The problem document as the server sent it (extra members such as ``errors`` included).
        self.problem: dict[str, Any] = dict(problem)
        #: Seconds from the ``Retry-After`` header, when the server sent one.
        self.retry_after_seconds: Optional[float] = retry_after_seconds
        super().__init__(f"{status} {self.code}{': ' + self.detail if self.detail else ''}")


class MemoryTimeoutError(Exception):
    """A wait (``add_and_wait``, ``jobs.wait``) that did not end in time."""


def is_memory_api_error(e: BaseException, *codes: str) -> bool:
    """Whether ``e`` is an API error, optionally with one of the given codes."""
    return isinstance(e, MemoryApiError) and (not codes or e.code in codes)
