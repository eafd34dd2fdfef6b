"""`s3://` and `gs://` paths for every command: read through Apache Beam's own filesystems
(apache_beam.io.filesystems.FileSystems), the command run on local copies, its outputs published back.

A command's flags that name a URL are handled here, around the command, so that no command has to
know about object storage:

- an input (any flag but the outputs) is copied into a local temporary folder: one object, or every
  object under the prefix (a folder);
- an output folder (`--output` of a command with `--overwrite`) is checked on the store before any
  work, with the rules of pipelines/output/folder.py: a prefix holding objects but no MARKER is a
  user's and is refused; one with the marker is replaced only with `--overwrite`; the command then
  writes into a new local folder;
- an output file (`--output FILE`, `--json`, `--report`, ...) is copied down first when it exists, so
  that the command's own check (a file capclean wrote, or a new one) decides, then written by the
  command locally.

When the command succeeds, each output goes up. A file is one PUT, which an object store makes
visible whole. A store has no rename, so a folder is published in the documented equivalent of
folder.py's swap: uploaded into a staging prefix `.NAME.partial-PID-XXXXXXXX` beside the target,
the target checked again, the earlier capclean output there deleted (its marker first), the staging
objects copied into place with the marker last, then the staging prefix deleted. A prefix without
the marker is never deleted from; a reader sees a complete output exactly when the marker is there.

Where the store is (an S3-compatible server's endpoint, the keys) comes from Beam's S3 options
(--s3_endpoint_url, --s3_access_key_id, --s3_secret_access_key, --s3_verify, ...) for a command that
takes Beam options, else from the environment boto3 reads (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, ...).
Every failure of the store is one line naming the URL (ObjectStoreError, exit 2).
"""
import os
import posixpath
import shutil
import socket
import tempfile
import uuid
from dataclasses import fields, replace
from pathlib import Path
from urllib.parse import urlsplit

from pipelines.output.folder import MARKER
from transforms.errors import CapcleanError

SCHEMES = ("s3://", "gs://")
# The flags that name what a command writes; every other flag naming a URL is an input.
OUTPUT_FLAGS = ("output", "json", "report", "write_texts", "negatives_output")
# How much of a store object is copied at a time.
CHUNK_BYTES = 1 << 22


class ObjectStoreError(CapcleanError):
    """An object store that cannot be read or written (no bucket, no object, no credentials, no
    endpoint), or an output path it refuses; the message names the URL."""


def is_url(value) -> bool:
    return isinstance(value, str) and value.startswith(SCHEMES)


def url_fields(args) -> dict:
    """{field: URL or list of values} of the arguments that name a URL (a list flag counts when any of it does)."""
    found = {}
    for field in fields(args):
        value = getattr(args, field.name)
        if is_url(value) or (isinstance(value, (list, tuple)) and any(is_url(item) for item in value)):
            found[field.name] = value
    return found


def run_with_object_store(command, args) -> int:
    """`command.run(args)`, with every URL in `args` replaced by a local copy, and the outputs published
    to their URLs when it returns 0. Without a URL, `command.run(args)` as it is."""
    remote = url_fields(args)
    if not remote:
        return command.run(args)
    for name in remote:
        if name in command.local_paths_only:
            raise ObjectStoreError(f"capclean {command.name} writes into {remote[name]}: give a local path "
                                   "(it cannot be a bucket)")
    store = ObjectStore(getattr(getattr(args, "beam", None), "args", ()))
    inputs = [value for name, value in remote.items() if name not in OUTPUT_FLAGS and is_url(value)]
    with tempfile.TemporaryDirectory(prefix="capclean-store-") as work:
        local, outputs = {}, []
        # The outputs first: a refused one costs no download.
        for name, value in sorted(remote.items(), key=lambda item: item[0] not in OUTPUT_FLAGS):
            where = Path(work) / name
            if name not in OUTPUT_FLAGS:
                local[name] = download_inputs(store, value, where)
            elif is_folder_output(name, args):
                store.check_folder_target(value, inputs, args.overwrite)
                local[name] = str(where / url_name(value))
                outputs.append((Path(local[name]), value, True))
            else:
                local[name] = store.download_if_exists(value, where / url_name(value))
                outputs.append((Path(local[name]), value, False))
        code = command.run(replace(args, **local))
        if code == 0:
            for path, url, folder in outputs:
                if folder:
                    store.publish_folder(path, url, inputs)
                elif path.is_file():
                    store.upload_file(path, url)
                else:
                    continue
                # The command named its local copy; this is where the output is.
                print(f"capclean: {path.name} published to {url}")
        return code


def download_inputs(store, value, folder: Path):
    """An input flag's local copy; a list flag's URLs each into a folder of its own, its local paths kept."""
    if isinstance(value, str):
        return store.download_all(value, folder)
    return type(value)(store.download_all(item, folder / str(number)) if is_url(item) else item
                       for number, item in enumerate(value))


def is_folder_output(name: str, args) -> bool:
    """`--output` names a folder in the commands that can --overwrite it; every other output is a file."""
    return name == "output" and hasattr(args, "overwrite")


def url_name(url: str) -> str:
    """The last part of a URL's path ('s3://bucket/runs/msrvtt/' -> 'msrvtt'); the bucket for a bare bucket."""
    return posixpath.basename(url.rstrip("/")) or "output"


def error_line(error: BaseException) -> str:
    """The first line of the innermost cause of a store failure: Beam wraps boto3's and the GCS client's
    errors in BeamIOError({path: error}), sometimes twice."""
    details = getattr(error, "exception_details", None)
    while isinstance(details, dict) and details:
        error = next(iter(details.values()))
        details = getattr(error, "exception_details", None)
    # Beam's S3ClientError is (message, code): its message alone.
    message = error.args[0] if error.args and isinstance(error.args[0], str) else str(error)
    text = message.strip().splitlines()
    return text[0] if text else type(error).__name__


def s3_endpoint(options) -> str | None:
    """The S3 endpoint a run names (--s3_endpoint_url, else boto3's AWS_ENDPOINT_URL[_S3]); None for AWS's own."""
    from apache_beam.options.pipeline_options import S3Options

    return (options.view_as(S3Options).s3_endpoint_url or os.environ.get("AWS_ENDPOINT_URL_S3")
            or os.environ.get("AWS_ENDPOINT_URL"))


def check_reachable(endpoint: str, url: str, seconds: float = 10.0) -> None:
    """One connection to the endpoint first: Beam retries a refused connection for minutes before failing."""
    parsed = urlsplit(endpoint)
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    try:
        socket.create_connection((parsed.hostname, port), timeout=seconds).close()
    except OSError as error:
        raise ObjectStoreError(f"{url}: cannot reach the endpoint {endpoint}: {error.strerror or error}") from None


def check_s3_credentials(url: str) -> None:
    """Keys from boto3's usual places (AWS_ACCESS_KEY_ID, ~/.aws/credentials, a role), when no flag gives them."""
    import boto3

    if boto3.session.Session().get_credentials() is None:
        raise ObjectStoreError(f"{url}: no S3 credentials: give --s3_access_key_id and --s3_secret_access_key, "
                               "or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")


def check_google_credentials(url: str) -> None:
    """Application default credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud auth application-default login)."""
    import google.auth
    from google.auth.exceptions import DefaultCredentialsError

    try:
        google.auth.default()
    except DefaultCredentialsError:
        raise ObjectStoreError(f"{url}: no Google Cloud credentials: set GOOGLE_APPLICATION_CREDENTIALS, or run "
                               "gcloud auth application-default login") from None


class ObjectStore:
    """The store operations capclean needs, each through Beam's FileSystems, each failure one line."""

    def __init__(self, beam_args=()):
        from apache_beam.io.filesystems import FileSystems
        from apache_beam.options.pipeline_options import PipelineOptions, S3Options

        options = PipelineOptions(list(beam_args))
        FileSystems.set_options(options)
        self._s3_endpoint = s3_endpoint(options)
        self._s3_keys_given = options.view_as(S3Options).s3_access_key_id is not None
        self._filesystems = {}

    def filesystem(self, url: str):
        scheme = url.split("://", 1)[0]
        if scheme not in self._filesystems:
            from apache_beam.io.filesystems import FileSystems
            try:
                filesystem = FileSystems.get_filesystem(url)
            except ValueError:
                extra = {"s3": "aws", "gs": "gcp"}[scheme]
                raise ObjectStoreError(f"{url}: reading {scheme}:// needs Beam's {extra} extra "
                                       f"(pip install 'apache-beam[{extra}]')") from None
            # Checked first because Beam retries a refused connection or a request without credentials
            # for minutes before it fails.
            if scheme == "s3":
                if self._s3_endpoint:
                    check_reachable(self._s3_endpoint, url)
                if not self._s3_keys_given:
                    check_s3_credentials(url)
            else:
                check_google_credentials(url)
            self._filesystems[scheme] = filesystem
        return self._filesystems[scheme]

    def call(self, url: str, what: str, operation, *arguments):
        """`operation(*arguments)`, any failure of it one line: '<url>: cannot <what>: <cause>'."""
        try:
            return operation(*arguments)
        except CapcleanError:
            raise
        except Exception as error:  # boto3's, the GCS client's, Beam's: each their own classes
            raise ObjectStoreError(f"{url}: cannot {what}: {error_line(error)}") from None

    def objects(self, prefix_url: str) -> list:
        """The URLs of the objects under `prefix_url`/ (a folder), sorted."""
        prefix = prefix_url.rstrip("/") + "/"
        store = self.filesystem(prefix)
        results = self.call(prefix_url, "list it", store.match, [prefix + "**"])
        return sorted(entry.path for entry in results[0].metadata_list)

    def exists(self, url: str) -> bool:
        store = self.filesystem(url)
        return self.call(url, "read it", store.exists, url)

    # ------------------------------------------------------------------ down

    def download_all(self, url: str, folder: Path) -> str:
        """An input: the object at `url`, or every object under it as a folder, copied into `folder`;
        returns the local path (named as the URL's last part)."""
        target = folder / url_name(url)
        if not url.endswith("/") and self.exists(url):
            self.download(url, target)
            return str(target)
        found = self.objects(url)
        if not found:
            raise ObjectStoreError(f"{url}: no such object, and no object under it")
        prefix = url.rstrip("/") + "/"
        for object_url in found:
            self.download(object_url, target / object_url[len(prefix):])
        return str(target)

    def download_if_exists(self, url: str, target: Path) -> str:
        """An output file: copied down when it exists (the command decides whether it may replace it)."""
        target.parent.mkdir(parents=True, exist_ok=True)
        if self.exists(url):
            self.download(url, target)
        return str(target)

    def download(self, url: str, target: Path) -> None:
        from apache_beam.io.filesystem import CompressionTypes

        target.parent.mkdir(parents=True, exist_ok=True)
        store = self.filesystem(url)

        def copy():
            # UNCOMPRESSED: the bytes as they are (Beam would otherwise gunzip a .gz by its name).
            with store.open(url, compression_type=CompressionTypes.UNCOMPRESSED) as source, \
                    open(target, "wb") as sink:
                shutil.copyfileobj(source, sink, CHUNK_BYTES)
        self.call(url, "read it", copy)

    # ------------------------------------------------------------------ up

    def upload_file(self, path: Path, url: str) -> None:
        from apache_beam.io.filesystem import CompressionTypes

        store = self.filesystem(url)

        def copy():
            with open(path, "rb") as source, \
                    store.create(url, compression_type=CompressionTypes.UNCOMPRESSED) as sink:
                shutil.copyfileobj(source, sink, CHUNK_BYTES)
        self.call(url, "write it", copy)

    def check_folder_target(self, url: str, inputs: list, overwrite: bool) -> None:
        """folder.py's check_target on a prefix: never the input or a prefix holding it, never a prefix
        with objects but no marker, one with the marker only with --overwrite."""
        target = url.rstrip("/")
        if target.count("/") < 3:
            raise ObjectStoreError(f"--output {url} is a whole bucket; name a folder in it (s3://BUCKET/NAME)")
        for source in inputs:
            source = source.rstrip("/")
            if source == target or source.startswith(target + "/"):
                raise ObjectStoreError(f"--output {url} is or contains the input {source}; name a new folder")
        found = self.objects(target)
        if not found:
            return
        if f"{target}/{MARKER}" not in found:
            raise ObjectStoreError(f"--output {url} holds objects capclean did not write (it has no {MARKER}); "
                                   "name a new or empty folder")
        if not overwrite:
            raise ObjectStoreError(f"--output {url} holds an earlier capclean output; pass --overwrite to replace it")

    def publish_folder(self, folder: Path, url: str, inputs: list) -> None:
        """The finished local output `folder` to the prefix `url`: staged, then put in place marker last
        (the module's docstring says why in this order)."""
        target = url.rstrip("/")
        parent, name = posixpath.split(target)
        staging = f"{parent}/.{name}.partial-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        files = sorted((path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()),
                       key=lambda relative: (relative == MARKER, relative))
        for relative in files:
            self.upload_file(folder / relative, f"{staging}/{relative}")
        # Another run may have published meanwhile (its output has the marker), or a user put objects there.
        self.check_folder_target(target, inputs, overwrite=True)
        earlier = self.objects(target)
        store = self.filesystem(target)
        if earlier:
            marker = f"{target}/{MARKER}"
            self.call(marker, "delete it", store.delete, [marker])
            rest = [path for path in earlier if path != marker]
            if rest:
                self.call(target, "delete the earlier output", store.delete, rest)
        # One call for the tables and the rest, then the marker (Beam's S3 filesystem makes a client per call).
        for batch in (files[:-1], files[-1:]):
            results = self.call(target, "copy the output into place", store.copy,
                                [f"{staging}/{relative}" for relative in batch], [f"{target}/{relative}" for relative in batch])
            # Beam's S3 filesystem returns (source, destination, error) for each pair rather than raising.
            failed = [result[-1] for result in results or () if isinstance(result, tuple) and result[-1] is not None]
            if failed:
                raise ObjectStoreError(f"{target}: cannot copy the output into place: {error_line(failed[0])}")
        self.call(staging, "delete it", store.delete, [f"{staging}/{relative}" for relative in files])
