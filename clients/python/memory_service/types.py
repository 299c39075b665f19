"""The shapes the main flows send and receive, as TypedDicts (the API's full reference: /docs, openapi.json).
Answers are plain dicts; these name the fields most code reads."""
from __future__ import annotations

from typing import Any, List, Literal, Optional, TypedDict


class _MessageBase(TypedDict):
    role: Literal["user", "assistant", "system"]
    content: str


class Message(_MessageBase, total=False):
    timestamp: str


class AddResult(TypedDict, total=False):
    #: The extraction job, or None when the add queued nothing (passthrough, L1–L4, blocked).
    job_id: Optional[str]
    #: ``queued``, ``passthrough``, ``L1``–``L4``, …
    status: str


class Job(TypedDict, total=False):
    id: str
    #: ``queued``, ``running``, then ``completed``, ``processed``, ``failed`` or ``dead``.
    status: str
    error: Optional[str]


class Memory(TypedDict, total=False):
    id: str
    content: str
    category: str
    confidence: float
    created_at: str


class RetrieveResult(TypedDict, total=False):
    #: The memories found, best first.
    data: List[Memory]
    #: The block to add to the system prompt.
    system_prompt_addition: str
    #: Pass to ``feedback.send``.
    retrieval_id: Optional[str]


class Page(TypedDict, total=False):
    items: List[Any]
    next_cursor: Optional[str]


class AddAndWaitResult(TypedDict):
    add: AddResult
    #: The finished job, or None when the add queued nothing.
    job: Optional[Job]
