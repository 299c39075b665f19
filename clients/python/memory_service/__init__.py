"""Python client of the memory service API: ``MemoryClient``, typed errors, and webhook verification."""
from __future__ import annotations

from ._http import Call, SendRequest, Transport, parse_retry_after
from .client import FINAL_JOB_STATUSES, MemoryClient, each_item, wait_for_job
from .errors import MemoryApiError, MemoryTimeoutError, is_memory_api_error
from .types import AddAndWaitResult, AddResult, Job, Memory, Message, Page, RetrieveResult
from .webhooks import (
    DEFAULT_TOLERANCE_SECONDS,
    WEBHOOK_SECRET_PREFIX,
    JobWaiter,
    VerifiedWebhook,
    WebhookVerificationError,
    sign_webhook,
    verify_webhook,
)

__all__ = [
    "AddAndWaitResult", "AddResult", "Call", "DEFAULT_TOLERANCE_SECONDS", "FINAL_JOB_STATUSES", "Job", "JobWaiter", "Memory",
    "MemoryApiError", "MemoryClient", "MemoryTimeoutError", "Message", "Page", "RetrieveResult", "SendRequest", "Transport",
    "VerifiedWebhook", "WEBHOOK_SECRET_PREFIX", "WebhookVerificationError", "each_item", "is_memory_api_error",
    "parse_retry_after", "sign_webhook", "verify_webhook", "wait_for_job",
]
__version__ = "0.1.0"
