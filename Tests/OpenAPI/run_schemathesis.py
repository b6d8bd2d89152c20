"""Runs schemathesis against a fresh openmarket-sandbox for each dialect's document.

For each of v2a, v2b and v1: a sandbox on a free loopback port (port 0, read back from the line it
prints) with an empty temporary data folder, three seeded products and a vendor whose identifier
and secret the run knows, so schemathesis can send valid credentials; then `schemathesis run` on
docs/openapi/<dialect>.yaml with a fixed seed and a bounded number of examples. Fails when any
dialect fails.
Usage: run_schemathesis.py SANDBOX_BINARY REPOSITORY_ROOT [DIALECT...]
Environment: SCHEMATHESIS_MAX_EXAMPLES (default 5), SCHEMATHESIS_SEED (default 20261127).
"""
import concurrent.futures
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

CHECKS = ",".join([
    "not_a_server_error", "status_code_conformance", "content_type_conformance",
    "response_schema_conformance", "response_headers_conformance",
    "negative_data_rejection", "positive_data_acceptance",
])
PHASES = "examples,coverage,fuzzing,stateful"
V1_PASSWORD = "schemathesis-pw"
# One dialect's report at a time, whole.
PRINTING = threading.Lock()


def start_sandbox(binary: str, dialect: str, data: str, vendor: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [binary, "--dialect", dialect, "--host", "127.0.0.1", "--port", "0", "--data", data,
         "--vendor", vendor, "--seed", "3"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    # The last line it prints names the address; it ends the start-up.
    for line in process.stdout:
        marker = "listening on "
        if marker in line:
            return process, line.split(marker, 1)[1].strip()
    process.wait()
    raise RuntimeError(f"the {dialect} sandbox did not start (exit status {process.returncode})")


def stop_sandbox(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def configuration(dialect: str, identifier: str, secret: str) -> str:
    """schemathesis.toml: valid credentials on every write, and what the documents say of quirks."""
    if dialect == "v1":
        # Every write of the run uses one password, so the stateful links can edit and delete
        # what they registered.
        text = f'[parameters]\n"body.password" = "{V1_PASSWORD}"\n'
    else:
        text = (f'[auth.openapi.identifier]\napi_key = "{identifier}"\n\n'
                f'[parameters]\n"body.secret" = "{secret}"\n"body.params.secret" = "{secret}"\n')
    if dialect == "v2a":
        # The real API answered a wrong product secret in the DELETE path with 400 (documented):
        # a schema-valid secret that is not the product's is refused with that status.
        text += ('\n[[operations]]\ninclude-operation-id = ["deleteProduct", "deleteProductSlash"]\n'
                 'checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404"]\n')
    # The trailing-slash twins run the same handlers as their paths: a few cases each show that
    # they answer as documented, without spending the budget twice.
    text += ('\n[[operations]]\ninclude-operation-id-regex = "Slash$"\n'
             'phases.coverage.enabled = false\ngeneration.max-examples = 3\n')
    return text


def run(binary: str, root: pathlib.Path, dialect: str, seed: str, max_examples: str) -> int:
    work = tempfile.mkdtemp(prefix=f"openmarket-schemathesis-{dialect}-")
    # Fixed credentials, like the seed: the same run generates the same requests.
    identifier, secret = "5c4e0a7e-2026-4127-8000-5c4e3a7e51a1", "schemathesis-vendor-secret"
    process = None
    try:
        process, url = start_sandbox(binary, dialect, os.path.join(work, "data"),
                                     f"schemathesis:{identifier}:{secret}")
        config = os.path.join(work, "schemathesis.toml")
        with open(config, "w") as file:
            file.write(configuration(dialect, identifier, secret))
        environment = dict(os.environ, SCHEMATHESIS_HOOKS="openmarket_hooks",
                           PYTHONPATH=str(root / "Tests" / "OpenAPI"),
                           OPENMARKET_SECRET=secret, OPENMARKET_PASSWORD=V1_PASSWORD)
        # The same interpreter's schemathesis: no dependence on a `schemathesis` script on PATH.
        command = [sys.executable, "-m", "schemathesis.cli", "--config-file", config, "run", str(root / "docs" / "openapi" / f"{dialect}.yaml"),
                   "--url", url, "--seed", seed, "--max-examples", max_examples, "--checks", CHECKS,
                   "--phases", PHASES, "--workers", "1", "--generation-database", "none",
                   "--no-color", "--output-truncate", "false"]
        started = time.monotonic()
        result = subprocess.run(command, env=environment, cwd=work, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        with PRINTING:
            print(f"==> schemathesis {dialect} against {url}\n{result.stdout}"
                  f"==> schemathesis {dialect}: exit {result.returncode} after {time.monotonic() - started:.1f} s",
                  flush=True)
        return result.returncode
    finally:
        if process is not None:
            stop_sandbox(process)
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    binary, root = sys.argv[1], pathlib.Path(sys.argv[2]).resolve()
    dialects = sys.argv[3:] or ["v2a", "v2b", "v1"]
    seed = os.environ.get("SCHEMATHESIS_SEED", "20261127")
    max_examples = os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "5")
    # The dialects run side by side: each run mostly waits on its sandbox or on itself, one
    # process at a time, so two cores finish three runs in about the time of the longest.
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(dialects)) as pool:
        statuses = dict(zip(dialects, pool.map(lambda d: run(binary, root, d, seed, max_examples), dialects)))
    failed = [dialect for dialect in dialects if statuses[dialect] != 0]
    if failed:
        print(f"schemathesis failed for {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
