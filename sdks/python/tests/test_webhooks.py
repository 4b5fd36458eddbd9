"""onair.webhooks.verify and sign: every case of the shared vectors (sdks/webhook-signature-vectors.json), plus
what the vectors cannot say (argument types, header mappings, the order of the checks).

These run without a server.
"""

from __future__ import annotations

import json
import pathlib
import unittest
from email.message import Message

from onair import WebhookVerificationError, webhooks

VECTORS_PATH = pathlib.Path(__file__).resolve().parents[2] / "webhook-signature-vectors.json"
VECTORS = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))


class VerifyVectors(unittest.TestCase):
    def test_the_vectors_are_there(self) -> None:
        # A suite that silently ran no case would pass for the wrong reason.
        self.assertGreaterEqual(len(VECTORS["verify"]["cases"]), 20)
        self.assertGreaterEqual(len(VECTORS["sign"]["cases"]), 3)

    def test_every_verify_case(self) -> None:
        for case in VECTORS["verify"]["cases"]:
            with self.subTest(case["name"]):
                body = case["body"].encode("utf-8")
                tolerance = case.get("tolerance", 300)
                expect = case["expect"]
                if expect["ok"]:
                    event = webhooks.verify(body, case["headers"], case["secret"], tolerance, now=case["now"])
                    self.assertEqual(event["id"], expect["id"])
                    self.assertEqual(event["type"], expect["type"])
                    self.assertEqual(event, json.loads(case["body"]))
                else:
                    with self.assertRaises(WebhookVerificationError) as caught:
                        webhooks.verify(body, case["headers"], case["secret"], tolerance, now=case["now"])
                    self.assertEqual(caught.exception.code, expect["error"])
                    self.assertTrue(str(caught.exception), "the error explains itself")

    def test_every_sign_case(self) -> None:
        for case in VECTORS["sign"]["cases"]:
            with self.subTest(case["name"]):
                headers = webhooks.sign(case["body"].encode("utf-8"), case["secret"], case["timestamp"])
                self.assertEqual(headers, case["expect"])

    def test_signed_headers_verify_as_a_delivery(self) -> None:
        for case in VECTORS["verify"]["cases"]:
            if not case["expect"]["ok"]:
                continue
            with self.subTest(case["name"]):
                body = case["body"].encode("utf-8")
                headers = webhooks.sign(body, case["secret"], case["now"])
                headers["X-Service-Delivery"] = case["expect"]["id"]
                event = webhooks.verify(body, headers, case["secret"], now=case["now"])
                self.assertEqual(event["id"], case["expect"]["id"])


VALID = VECTORS["verify"]["cases"][0]


class VerifyBehaviour(unittest.TestCase):
    def test_sign_defaults_to_now(self) -> None:
        import time

        before = int(time.time())
        headers = webhooks.sign(b"{}", "whsec_x")
        self.assertLessEqual(before, int(headers["X-Service-Timestamp"]))
        self.assertLessEqual(int(headers["X-Service-Timestamp"]), int(time.time()))
        self.assertRegex(headers["X-Service-Signature"], r"^v1=[0-9a-f]{64}$")

    def test_verify_defaults_to_the_clock(self) -> None:
        # The vector was signed in 2025: against the real clock it is stale.
        with self.assertRaises(WebhookVerificationError) as caught:
            webhooks.verify(VALID["body"].encode("utf-8"), VALID["headers"], VALID["secret"])
        self.assertEqual(caught.exception.code, "timestamp_out_of_tolerance")

    def test_headers_from_http_server_message(self) -> None:
        # http.server gives an email.message.Message; names come in any case.
        message = Message()
        for name, value in VALID["headers"].items():
            message[name.upper()] = value
        event = webhooks.verify(VALID["body"].encode("utf-8"), message, VALID["secret"], now=VALID["now"])
        self.assertEqual(event["id"], VALID["expect"]["id"])

    def test_list_valued_headers(self) -> None:
        headers = {name: [value] for name, value in VALID["headers"].items()}
        event = webhooks.verify(VALID["body"].encode("utf-8"), headers, VALID["secret"], now=VALID["now"])
        self.assertEqual(event["type"], "channel.bind_updated")

    def test_bytearray_and_memoryview_bodies(self) -> None:
        raw = VALID["body"].encode("utf-8")
        for body in (bytearray(raw), memoryview(raw)):
            event = webhooks.verify(body, VALID["headers"], VALID["secret"], now=VALID["now"])
            self.assertEqual(event["id"], VALID["expect"]["id"])

    def test_a_str_body_is_refused(self) -> None:
        with self.assertRaises(TypeError):
            body: object = VALID["body"]
            webhooks.verify(body, VALID["headers"], VALID["secret"], now=VALID["now"])  # type: ignore[arg-type]

    def test_checks_run_in_order(self) -> None:
        # A bad timestamp is reported before a bad signature, and a bad signature before a bad body.
        headers = dict(VALID["headers"], **{"X-Service-Timestamp": "soon", "X-Service-Signature": "v1=00"})
        with self.assertRaises(WebhookVerificationError) as caught:
            webhooks.verify(b"not json", headers, VALID["secret"], now=VALID["now"])
        self.assertEqual(caught.exception.code, "invalid_timestamp")
        headers = dict(VALID["headers"], **{"X-Service-Signature": "v1=00"})
        with self.assertRaises(WebhookVerificationError) as caught:
            webhooks.verify(b"not json", headers, VALID["secret"], now=VALID["now"])
        self.assertEqual(caught.exception.code, "signature_mismatch")

    def test_a_json_array_body_is_invalid(self) -> None:
        body = b'[{"id":"evt_1"}]'
        headers = webhooks.sign(body, "whsec_x", 1000)
        headers["X-Service-Delivery"] = "evt_1"
        with self.assertRaises(WebhookVerificationError) as caught:
            webhooks.verify(body, headers, "whsec_x", now=1000)
        self.assertEqual(caught.exception.code, "invalid_body")

    def test_non_ascii_signature_header_is_a_mismatch_not_a_crash(self) -> None:
        headers = dict(VALID["headers"], **{"X-Service-Signature": "v1=é"})
        with self.assertRaises(WebhookVerificationError) as caught:
            webhooks.verify(VALID["body"].encode("utf-8"), headers, VALID["secret"], now=VALID["now"])
        self.assertEqual(caught.exception.code, "signature_mismatch")


if __name__ == "__main__":
    unittest.main()
