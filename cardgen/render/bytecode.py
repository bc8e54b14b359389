"""Compiled templates kept between builds, in the face cache's folder (render/facestore.py).

Compiling a template (Jinja's parser, its code generator and Python's compiler) costs
a build a few tenths of a second; Jinja's bytecode cache keeps the compiled code
instead. That code is loaded with ``marshal`` and run, so a cache file anyone could
write would run their code: every entry is signed with the user's secret key (the
face cache's HMAC-SHA256 key, kept private in the folder), holds its own key, and is
read only when both check; anything else (a changed byte, an entry copied under
another name, a file too large, code ``marshal`` cannot read) is a miss, and the
template is compiled as if there were no cache. Jinja's own file format (``pickle``
in its header) is not used.

An entry's key is made of the template's name, its file, its source's SHA-256, the
versions of cardgen, Jinja, Babel and Python, the source of the render package (the
sandbox's code generator) and Python's bytecode magic number: code compiled by
another cardgen, Jinja or Python is never loaded. It also keeps what the template
can read (render/memo.py's facts), which the compiler would have learnt, so that a
face's memo key is the same whether its template was compiled or loaded.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import marshal
from types import CodeType
from typing import Any

import jinja2
from jinja2.bccache import Bucket

from .facestore import FaceStore
from .memo import TemplateFacts

SUFFIX = ".jinja"  # beside the faces' .json entries, evicted with them
MAX_CODE = 16 * 2**20  # an entry's largest size


class SignedBytecodeCache(jinja2.BytecodeCache):
    """Jinja's bytecode cache in a :class:`FaceStore`, every entry signed; ``facts`` is
    the environment's table of template facts (LimitedSandbox.facts), filled for a
    template whose code is loaded."""

    def __init__(self, store: FaceStore, facts: dict[str, TemplateFacts]):
        self.store = store
        self.facts = facts
        self.loads = 0  # entries loaded by this process (what the tests look at)

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None,
                   source: str) -> Bucket:
        digest = hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()
        key = self.store.facts_key("\0".join(("jinja-bytecode", importlib.util.MAGIC_NUMBER.hex(), name,
                                              filename or "", digest)))
        bucket = Bucket(environment, key, digest)
        bucket.name = name  # type: ignore[attr-defined]  # for dump_bytecode: whose facts to keep
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        body = self.store.read_signed(bucket.key, SUFFIX, MAX_CODE)
        if body is None:
            return
        head, _, code = body.partition(b"\n")
        try:
            header = json.loads(head.decode("utf-8"))
            loaded = marshal.loads(code)
        except (ValueError, EOFError, TypeError, RecursionError, MemoryError):
            return
        if not (isinstance(header, dict) and header.get("key") == bucket.key
                and header.get("digest") == bucket.checksum and isinstance(loaded, CodeType)):
            return
        facts = TemplateFacts.from_json(header.get("facts") or {}, bucket.checksum)
        if facts is None:
            return
        self.facts[bucket.name] = facts  # type: ignore[attr-defined]
        bucket.code = loaded
        self.loads += 1

    def dump_bytecode(self, bucket: Bucket) -> None:
        facts = self.facts.get(bucket.name)  # type: ignore[attr-defined]
        if bucket.code is None or facts is None or facts.digest != bucket.checksum:
            return  # the facts of another source: the entry could not give them back
        header: dict[str, Any] = {"key": bucket.key, "digest": bucket.checksum, "facts": facts.as_json()}
        body = json.dumps(header, ensure_ascii=True).encode("ascii") + b"\n" + marshal.dumps(bucket.code)
        if len(body) < MAX_CODE:
            self.store.put_signed(bucket.key, body, SUFFIX)

    def clear(self) -> None:
        """Entries go with the face cache's own eviction (FaceStore.evict)."""
