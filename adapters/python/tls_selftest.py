"""The client over TLS: an https:// base URL against a server whose certificate is signed by ``ca_file`` (WebSocket
episodes over wss://, HTTP episodes, external runs), and the same calls refused without it (certificates are
checked by default). Prints one JSON line:

    PYTHONPATH=adapters/python python3 adapters/python/tls_selftest.py https://127.0.0.1:8443 ca.pem
"""

from __future__ import annotations

import json
import ssl
import sys
import urllib.error

from dreamgym_env import DreamGymEnv, DreamGymHttpEnv, DreamGymRuns


def refused(call) -> str:
    """How a call without the certificate's authority fails: with a certificate error, nothing else."""
    try:
        call()
    except ssl.SSLCertVerificationError as err:
        return f"certificate: {err.reason}"
    except urllib.error.URLError as err:
        if isinstance(err.reason, ssl.SSLCertVerificationError):
            return f"certificate: {err.reason.reason}"
        return f"other: {err}"
    return "accepted"


def main() -> None:
    base, ca_file = sys.argv[1], sys.argv[2]
    run_id = DreamGymRuns(base, ca_file=ca_file).create(name="over TLS", domain="household", method="real")
    with DreamGymEnv(base, ca_file=ca_file, run_id=run_id) as env:
        reset = env.reset(seed=1)
        ws_step = env.step("look")
    http_env = DreamGymHttpEnv(base, ca_file=ca_file, run_id=run_id)
    http_env.reset(seed=2)
    http_step = http_env.step("look")
    http_env.close()
    out = {
        "ws": {"episode_id": reset["metadata"]["episode_id"], "step": ws_step["observation"]["step"]},
        "http": {"step": http_step["observation"]["step"]},
        "without_ca": {
            "ws": refused(lambda: DreamGymEnv(base, run_id=run_id)),
            "http": refused(lambda: DreamGymHttpEnv(base, run_id=run_id).reset(seed=1)),
        },
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
