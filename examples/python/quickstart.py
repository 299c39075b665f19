"""
Quick start with the Python client: add a conversation, wait for its extraction, retrieve the prompt block.

    PYTHONPATH=clients/python MEMORY_URL=http://localhost:3000 MEMORY_API_KEY=mem_sk_… python3 examples/python/quickstart.py

MEMORY_USER names the end user (default "quickstart-user").
"""
from __future__ import annotations

import os
import sys

from memory_service import MemoryApiError, MemoryClient


def main() -> int:
    url = os.environ.get("MEMORY_URL", "http://localhost:3000")
    key = os.environ.get("MEMORY_API_KEY")
    if not key:
        print("Set MEMORY_API_KEY to a tenant API key (mem_sk_…).", file=sys.stderr)
        return 2
    user = os.environ.get("MEMORY_USER", "quickstart-user")
    client = MemoryClient(url, key)
    try:
        added = client.memories.add_and_wait(
            user,
            [
                {"role": "user", "content": "Hi! I moved to Lisbon last month and I am vegetarian."},
                {"role": "assistant", "content": "Welcome to Lisbon! I will keep that in mind."},
            ],
        )
        job = added["job"]
        print(f"add: {added['add']['status']}, job: {job['status'] if job else 'none'}")
        found = client.memories.retrieve(user, "What should I know about this user?")
    except MemoryApiError as e:
        print(f"memory service error {e.status} {e.code}: {e.detail}", file=sys.stderr)
        return 1
    print(found["system_prompt_addition"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
