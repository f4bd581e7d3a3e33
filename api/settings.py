"""How the service runs: its settings, from the command line and the environment (never from URLs)."""

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tutepgn.archive import default_path


def _cores() -> int:
    """The cores this process may run on (its CPU affinity, which containers narrow), else all of them."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class Settings(BaseModel):
    """How the service runs; from the command line and the environment, never from URLs."""

    model_config = ConfigDict(extra="forbid")  # a mistyped setting is an error, not the default archive

    db: Path = Field(default_factory=default_path)
    recordings: Path | None = Field(None, description="The folder of the live recordings' journals (default: "
                                                      "beside the archive, `<archive>.recordings`).")
    jobs: Path | None = Field(None, description="The folder of the analysis jobs every worker process finds "
                                                "(default: beside the archive, `<archive>.jobs`).")
    read_only: bool = False
    dataset: Path | None = Field(None, description="Serve this Parquet dataset (`tute import --to parquet`), "
                                                   "read-only, instead of the archive file.")
    api_keys: frozenset[str] = Field(frozenset(), repr=False)
    admin_keys: frozenset[str] = Field(frozenset(), repr=False, description="Write keys that may also undo "
                                                                            "any scorer's live recording.")
    local_key: str | None = Field(None, repr=False, description="The local admin key (`<archive>.keys`, made by "
                                                                "`tute serve`): an admin key, and the key of the "
                                                                "requests from this machine while `trust_local`.")
    table_keys: frozenset[str] = Field(frozenset(), repr=False, description="Write keys `tute serve --table-keys` "
                                                                            "made, one per table.")
    trust_local: bool = Field(False, description="Requests from this machine (api/local.py) write as the local "
                                                 "admin with no key; never while an API or admin key is configured.")
    cors_origins: list[str] = Field(default_factory=list)
    max_body_bytes: int = Field(2 * 1024 * 1024, ge=1, description="The largest request body, in bytes.")
    query_timeout: float = Field(5.0, gt=0, description="Time limit of each query, in seconds.")
    max_page: int = Field(500, ge=1, description="The largest `limit` of a page.")
    max_rows: int = Field(100_000, ge=1, description="Most rows a streamed answer gives.")
    search_cache: int = Field(4096, ge=0, description="Search pages kept in memory (0: none); cleared on import.")
    page_cache_bytes: int = Field(64 * 1024 * 1024, ge=0,
                                  description="Memory the search pages kept may take, in bytes (0: no cache).")
    answer_cache_bytes: int = Field(64 * 1024 * 1024, ge=0, description=(
        "Memory the answers kept by their ETag may take per process, in bytes (0: none): api/caching.py."))
    shared_answers: Path | None = Field(None, description=(
        "A file where the worker processes share the answers they kept (api/caching.py); `tute serve --workers N` "
        "makes one in a temporary folder for the workers' lifetime."))
    shared_answer_bytes: int = Field(256 * 1024 * 1024, ge=0, description=(
        "Disk the shared answers may take, in bytes; the oldest go first past it (0: none shared)."))
    max_streams: int = Field(64, ge=1, description="Streamed answers sent at once per process; more answer 503.")
    max_event_streams: int = Field(256, ge=1, description="Live recordings' event streams open at once per "
                                                          "process, apart from downloads; more answer 503.")
    max_recordings: int = Field(1000, ge=1, description="Live recordings under way (their deal not in the archive "
                                                        "yet); one more is refused with 503.")
    request_timeout: float = Field(30.0, gt=0, description="Time limit of a posted request (validate, convert, "
                                                           "import), in seconds; past it the answer is 504.")
    header_timeout: float = Field(10.0, gt=0, description="Seconds a client has to send a request's headers.")
    body_timeout: float = Field(30.0, gt=0, description="Seconds a client has to send a request's body.")
    keep_alive_timeout: int = Field(5, ge=1, description="Seconds an idle connection is kept open.")
    threads: int | None = Field(None, ge=1, description="DuckDB threads per query (default: one per core).")
    analysis_workers: int = Field(1, ge=1, description="Processes that analyse deals (double dummy) for "
                                                       "/analysis and /analyse; started at the first analysis.")
    max_replay_records: int = Field(100, ge=1, description="Most records POST /replay puts on the table (about "
                                                           "23 KB of answer each); more answer 413.")
    max_answer_bytes: int = Field(16 * 1024 * 1024, ge=1024, description="Largest answer of POST /replay, in "
                                                                        "bytes; a larger one is never sent (413).")
    anon_analyses: int = Field(1, ge=1, description="Analyses anonymous clients may have waiting or under way "
                                                    "at once; past it they answer 429.")
    concurrency: int = Field(default_factory=_cores, ge=1,
                             description="Requests that run at once per process (default: one per core); "
                                         "the others wait in line.")

    @property
    def write_keys(self) -> frozenset[str]:
        """Every key that may write: the API keys, the table keys and the admin keys (the local one too)."""
        return self.api_keys | self.table_keys | self.all_admin_keys

    @property
    def all_admin_keys(self) -> frozenset[str]:
        """The keys that may also undo any recording: the admin keys configured, and the local admin key."""
        return self.admin_keys | ({self.local_key} if self.local_key else frozenset())

    @property
    def local_writes(self) -> bool:
        """Whether requests from this machine write with no key: ``trust_local``, with a local admin key to
        write as, and no key configured (whoever configures keys, for a proxy in front say, means them)."""
        return self.trust_local and bool(self.local_key) and not (self.api_keys or self.admin_keys)

    @property
    def recordings_folder(self) -> Path:
        """Where the live recordings are journaled: ``recordings``, else a folder beside the archive."""
        return self.recordings or self.db.with_name(self.db.name + ".recordings")

    @property
    def jobs_folder(self) -> Path:
        """Where the analysis jobs are written for every worker process: ``jobs``, else a folder beside the
        archive (or the dataset) served."""
        served = self.dataset or self.db
        return self.jobs or served.with_name(served.name + ".jobs")

    @classmethod
    def from_env(cls, **overrides: Any) -> "Settings":
        """Settings from TUTEPGN_* variables: DB, RECORDINGS, JOBS, READ_ONLY, API_KEYS (comma-separated), API_KEYS_FILE (one a
        line), ADMIN_KEYS (comma-separated; write keys too), CORS_ORIGINS, SEARCH_CACHE, THREADS, CONCURRENCY, MAX_BODY_BYTES, QUERY_TIMEOUT, MAX_PAGE,
        MAX_ROWS, ANALYSIS_WORKERS and the other limits by their names."""
        keys = {k.strip() for k in os.environ.get("TUTEPGN_API_KEYS", "").split(",") if k.strip()}
        admin = {k.strip() for k in os.environ.get("TUTEPGN_ADMIN_KEYS", "").split(",") if k.strip()}
        key_file = os.environ.get("TUTEPGN_API_KEYS_FILE")
        if key_file:
            keys |= {line.strip() for line in Path(key_file).read_text(encoding="utf-8").splitlines() if line.strip()}
        data: dict[str, Any] = {"api_keys": frozenset(keys), "admin_keys": frozenset(admin),
                                "cors_origins": [o.strip() for o in os.environ.get("TUTEPGN_CORS_ORIGINS", "").split(",")
                                                 if o.strip()]}
        if os.environ.get("TUTEPGN_DB"):
            data["db"] = Path(os.environ["TUTEPGN_DB"])
        if os.environ.get("TUTEPGN_RECORDINGS"):
            data["recordings"] = Path(os.environ["TUTEPGN_RECORDINGS"])
        if os.environ.get("TUTEPGN_JOBS"):
            data["jobs"] = Path(os.environ["TUTEPGN_JOBS"])
        if os.environ.get("TUTEPGN_READ_ONLY", "").lower() in ("1", "true", "yes"):
            data["read_only"] = True
        if os.environ.get("TUTEPGN_DATASET"):
            data["dataset"] = Path(os.environ["TUTEPGN_DATASET"])
        from_env: dict[str, str] = {}
        for name in _TUNABLE:
            value = os.environ.get(f"TUTEPGN_{name.upper()}")
            if value:
                data[name] = from_env[name] = value  # the model checks and converts it
        data.update({k: v for k, v in overrides.items() if v is not None})
        if data.get("dataset") is not None:  # a dataset is read, never written, by a service
            data["read_only"] = True
        try:
            return cls(**data)
        except ValidationError as exc:  # say which variable, not which field
            raise ValueError("; ".join(
                f"TUTEPGN_{e['loc'][0].upper()}={from_env[e['loc'][0]]!r}: {e['msg']}" if e["loc"][0] in from_env
                else f"{e['loc'][0]}: {e['msg']}" for e in exc.errors())) from None


_TUNABLE = ("search_cache", "page_cache_bytes", "answer_cache_bytes", "shared_answers", "shared_answer_bytes", "threads", "concurrency", "max_body_bytes", "query_timeout",
            "max_page", "max_rows", "max_streams", "request_timeout", "header_timeout", "body_timeout",
            "keep_alive_timeout", "analysis_workers", "max_replay_records", "max_answer_bytes", "anon_analyses",
            "max_event_streams", "max_recordings")
"""Settings read from TUTEPGN_<NAME> as they are."""
