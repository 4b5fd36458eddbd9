"""The client against a scripted local server: what it sends (headers, paths, bodies, idempotency keys) and how it
reads answers (problem documents, non-JSON errors, retries on 429/503, transport failures, pages).

These run without an onair server; tests/test_integration.py runs the same SDK against a real one.
"""

from __future__ import annotations

import os
import socket
import time
import unittest
import urllib.parse
import uuid
from typing import List
from unittest import mock

import onair
from onair import ApiError, OnairError, TransportError, webhooks

from .fake_server import FakeServer, Recorded, answer, problem

KEY = "onair_sk_unitTestKey0123456789abcdefghij"
CHANNEL = {"id": "ch_1", "name": "Main"}


def client_for(fake: FakeServer, **options: object) -> "tuple[onair.Client, List[float]]":
    """A client of the fake server whose retry waits are recorded instead of slept."""
    client = onair.Client(api_key=KEY, base_url=fake.url, **options)  # type: ignore[arg-type]
    sleeps: List[float] = []
    client._transport._sleep = sleeps.append  # the unit tests check the waits, not the clock
    return client, sleeps


def query_of(request: Recorded) -> dict:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(request.path).query))


def path_of(request: Recorded) -> str:
    return urllib.parse.urlsplit(request.path).path


class Requests(unittest.TestCase):
    def test_every_call_carries_the_sdk_headers(self) -> None:
        with FakeServer() as fake:
            fake.queue(answer(200, {"permissions": ["*"]}))
            client, _ = client_for(fake)
            self.assertEqual(client.me(), {"permissions": ["*"]})
            sent = fake.requests[0]
            self.assertEqual((sent.method, sent.path), ("GET", "/v1/me"))
            self.assertEqual(sent.headers["user-agent"], f"onair-python/{onair.__version__}")
            self.assertEqual(sent.headers["accept"], "application/json")
            self.assertEqual(sent.headers["authorization"], f"Bearer {KEY}")
            self.assertNotIn("content-type", sent.headers)
            self.assertNotIn("idempotency-key", sent.headers)

    def test_base_url_with_or_without_slash_and_v1(self) -> None:
        with FakeServer() as fake:
            for base in (fake.url, fake.url + "/", fake.url + "/v1", fake.url + "/v1/"):
                fake.queue(answer(200, CHANNEL))
                client = onair.Client(api_key=KEY, base_url=base)
                self.assertEqual(client.base_url, fake.url)
                client.channels.get("ch_1")
            self.assertEqual([r.path for r in fake.requests], ["/v1/channels/ch_1"] * 4)

    def test_a_bad_base_url_is_refused_at_once(self) -> None:
        for base in ("localhost:8080", "ftp://host", "", "http://"):
            with self.subTest(base), self.assertRaises(ValueError):
                onair.Client(api_key=KEY, base_url=base)

    def test_the_key_falls_back_to_ONAIR_API_KEY(self) -> None:
        with FakeServer() as fake, mock.patch.dict(os.environ, {"ONAIR_API_KEY": "onair_sk_fromEnvironment"}):
            fake.queue(answer(200, {}), answer(200, {}))
            onair.Client(base_url=fake.url).me()
            onair.Client(api_key=KEY, base_url=fake.url).me()
            self.assertEqual(fake.requests[0].headers["authorization"], "Bearer onair_sk_fromEnvironment")
            self.assertEqual(fake.requests[1].headers["authorization"], f"Bearer {KEY}")

    def test_json_bodies_and_path_parameters(self) -> None:
        with FakeServer() as fake:
            fake.queue(answer(200, {"channelId": "ch/1?x", "frame": 5, "inputs": {"scoreA": 3}}))
            client, _ = client_for(fake)
            result = client.channels.patch_inputs("ch/1?x", {"scoreA": 3, "home": "Zoë"})
            self.assertEqual(result["frame"], 5)
            sent = fake.requests[0]
            self.assertEqual(sent.method, "PATCH")
            self.assertEqual(sent.path, "/v1/channels/ch%2F1%3Fx/inputs")
            self.assertEqual(sent.headers["content-type"], "application/json")
            self.assertEqual(sent.body, '{"scoreA":3,"home":"Zoë"}'.encode("utf-8"))

    def test_an_empty_id_is_refused_before_any_request(self) -> None:
        with FakeServer() as fake:
            client, _ = client_for(fake)
            with self.assertRaises(ValueError):
                client.channels.get("")
            with self.assertRaises(ValueError):
                client.scenes.iterate("")
            self.assertEqual(fake.requests, [])

    def test_no_content_answers_none(self) -> None:
        with FakeServer() as fake:
            fake.queue(answer(204))
            client, _ = client_for(fake)
            self.assertIsNone(client.channels.delete("ch_1"))
            self.assertEqual((fake.requests[0].method, fake.requests[0].path), ("DELETE", "/v1/channels/ch_1"))

    def test_playout_bodies(self) -> None:
        with FakeServer() as fake:
            client, _ = client_for(fake)
            fake.queue(*[answer(200, {"frame": 1})] * 7)
            client.playout.preview("ch_1", "sc_1")
            client.playout.program("ch_1", {"sceneId": "sc_2"})
            client.playout.take("ch_1")
            client.playout.take("ch_1", {"layer": 10})
            client.playout.clear("ch_1", {"sceneId": "sc_1"})
            client.playout.fire_trigger("ch_1", "flashScoreA")
            client.playout.clock("ch_1", "gameClock", "set", 60000)
            got = [(r.method, r.path, r.body) for r in fake.requests]
            self.assertEqual(
                got,
                [
                    ("POST", "/v1/channels/ch_1/preview", b'{"sceneId":"sc_1"}'),
                    ("POST", "/v1/channels/ch_1/program", b'{"sceneId":"sc_2"}'),
                    ("POST", "/v1/channels/ch_1/take", b""),
                    ("POST", "/v1/channels/ch_1/take", b'{"layer":10}'),
                    ("POST", "/v1/channels/ch_1/clear", b'{"sceneId":"sc_1"}'),
                    ("POST", "/v1/channels/ch_1/triggers/flashScoreA", b""),
                    ("POST", "/v1/channels/ch_1/clocks/gameClock", b'{"action":"set","ms":60000}'),
                ],
            )
            self.assertNotIn("content-type", fake.requests[2].headers)

    def test_dry_runs_and_event_filters_go_in_the_query(self) -> None:
        with FakeServer() as fake:
            client, _ = client_for(fake)
            fake.queue(answer(200, {"id": "sc_dryrun"}), answer(200, {"data": [], "nextCursor": None}))
            client.scenes.create("ch_1", {"name": "Score", "template": "scoreboard"}, dry_run=True)
            client.events.list(channel_id="ch_1", type="channel.played", limit=5)
            self.assertEqual(query_of(fake.requests[0]), {"dryRun": "1"})
            self.assertEqual(query_of(fake.requests[1]), {"channelId": "ch_1", "type": "channel.played", "limit": "5"})


class IdempotencyKeys(unittest.TestCase):
    def test_every_create_sends_a_fresh_uuid(self) -> None:
        with FakeServer() as fake:
            client, _ = client_for(fake)
            fake.queue(*[answer(201, {"id": "x"})] * 9)
            client.channels.create({"name": "A"})
            client.channels.create({"name": "A"})
            client.scenes.create("ch_1", {"name": "S", "template": "scoreboard"})
            client.channels.rotate_output_token("ch_1")
            client.keys.create({"name": "k", "permissions": ["channels:read"]})
            client.webhooks.create({"url": "https://example.com/"})
            client.webhooks.ping("wh_1")
            client.sources.create("ch_1", {"type": "json_url", "url": "https://example.com/feed.json"})
            client.incoming_hooks.create("ch_1")
            keys = [r.headers.get("idempotency-key") for r in fake.requests]
            for key in keys:
                self.assertEqual(str(uuid.UUID(key)), key)
            self.assertEqual(len(set(keys)), len(keys), "a new key per call")
            self.assertEqual(fake.requests[-1].body, b"{}")

    def test_the_callers_key_is_used(self) -> None:
        with FakeServer() as fake:
            client, _ = client_for(fake)
            fake.queue(answer(201, CHANNEL))
            client.channels.create({"name": "A"}, idempotency_key="order-42")
            self.assertEqual(fake.requests[0].headers["idempotency-key"], "order-42")

    def test_other_calls_send_none(self) -> None:
        with FakeServer() as fake:
            client, _ = client_for(fake)
            fake.queue(answer(200, {}), answer(200, {}), answer(200, {}))
            client.playout.take("ch_1")
            client.channels.patch_inputs("ch_1", {"a": 1})
            client.channels.update("ch_1", {"name": "B"})
            self.assertEqual([r.headers.get("idempotency-key") for r in fake.requests], [None, None, None])

    def test_the_raw_request_exposes_replays(self) -> None:
        with FakeServer() as fake:
            client, _ = client_for(fake)
            fake.queue(answer(201, CHANNEL, {"Idempotent-Replayed": "true"}))
            response = client.request("POST", "/v1/channels", json={"name": "Main"}, idempotency_key="k1")
            self.assertEqual(response.status, 201)
            self.assertTrue(response.replayed)
            self.assertEqual(response.request_id, "req_fake201")
            self.assertEqual(response.data, CHANNEL)
            self.assertEqual(fake.requests[0].headers["idempotency-key"], "k1")


class Retries(unittest.TestCase):
    def test_429_is_waited_out_with_the_same_idempotency_key(self) -> None:
        with FakeServer() as fake:
            client, sleeps = client_for(fake)
            fake.queue(
                problem(429, "rate_limited", headers={"Retry-After": "2"}),
                problem(429, "rate_limited"),  # no Retry-After: at least 1 s
                answer(201, CHANNEL),
            )
            with self.assertLogs("onair", "INFO") as logs:
                self.assertEqual(client.channels.create({"name": "Main"}), CHANNEL)
            self.assertEqual(sleeps, [2, 1])
            self.assertEqual(len(logs.records), 2)
            keys = {r.headers["idempotency-key"] for r in fake.requests}
            self.assertEqual(len(fake.requests), 3)
            self.assertEqual(len(keys), 1, "one key per call, reused by its retries")

    def test_a_retry_after_of_zero_still_waits_one_second(self) -> None:
        with FakeServer() as fake:
            client, sleeps = client_for(fake)
            fake.queue(problem(429, "rate_limited", headers={"Retry-After": "0"}), answer(200, {}))
            client.me()
            self.assertEqual(sleeps, [1])

    def test_503_is_retried_only_with_retry_after(self) -> None:
        with FakeServer() as fake:
            client, sleeps = client_for(fake)
            fake.queue(problem(503, "unavailable", headers={"Retry-After": "1"}), answer(200, {"ok": 1}))
            self.assertEqual(client.me(), {"ok": 1})
            self.assertEqual(sleeps, [1])
            fake.queue(problem(503, "unavailable"))
            with self.assertRaises(ApiError) as caught:
                client.me()
            self.assertEqual(caught.exception.code, "unavailable")
            self.assertEqual(sleeps, [1])
            self.assertEqual(len(fake.requests), 3)

    def test_a_wait_over_max_retry_wait_raises_at_once(self) -> None:
        with FakeServer() as fake:
            client, sleeps = client_for(fake, max_retry_wait=30)
            fake.queue(problem(429, "rate_limited", headers={"Retry-After": "60"}))
            started = time.monotonic()
            with self.assertRaises(ApiError) as caught:
                client.channels.patch_inputs("ch_1", {"a": 1})
            self.assertLess(time.monotonic() - started, 1)
            self.assertEqual(sleeps, [])
            self.assertEqual(caught.exception.status, 429)
            self.assertEqual(caught.exception.retry_after, 60)
            self.assertEqual(len(fake.requests), 1)

    def test_at_most_max_retries(self) -> None:
        with FakeServer() as fake:
            client, sleeps = client_for(fake, max_retries=2)
            fake.queue(*[problem(429, "rate_limited", headers={"Retry-After": "1"})] * 3)
            with self.assertRaises(ApiError) as caught:
                client.me()
            self.assertEqual(caught.exception.code, "rate_limited")
            self.assertEqual(sleeps, [1, 1])
            self.assertEqual(len(fake.requests), 3)

    def test_max_retries_zero_never_retries(self) -> None:
        with FakeServer() as fake:
            client, sleeps = client_for(fake, max_retries=0)
            fake.queue(problem(429, "rate_limited", headers={"Retry-After": "1"}))
            with self.assertRaises(ApiError):
                client.me()
            self.assertEqual((sleeps, len(fake.requests)), ([], 1))

    def test_nothing_else_is_retried(self) -> None:
        for status, code in ((500, "internal"), (409, "conflict"), (400, "invalid_request"), (404, "not_found")):
            with self.subTest(status), FakeServer() as fake:
                client, sleeps = client_for(fake)
                fake.queue(problem(status, code, headers={"Retry-After": "1"}), answer(200, {}))
                with self.assertRaises(ApiError) as caught:
                    client.channels.create({"name": "x"})
                self.assertEqual((caught.exception.status, caught.exception.code), (status, code))
                self.assertEqual((sleeps, len(fake.requests)), ([], 1))


class Errors(unittest.TestCase):
    def test_a_problem_document_becomes_an_api_error(self) -> None:
        with FakeServer() as fake:
            client, _ = client_for(fake)
            fake.queue(
                problem(
                    400,
                    "unknown_input",
                    'No scene of this channel declares an input named "scorA".',
                    errors=[{"path": "scorA", "message": "unknown input"}],
                    input="scorA",
                    closest="scoreA",
                )
            )
            with self.assertRaises(ApiError) as caught:
                client.channels.patch_inputs("ch_1", {"scorA": 1})
            error = caught.exception
            self.assertIsInstance(error, OnairError)
            self.assertEqual(error.status, 400)
            self.assertEqual(error.code, "unknown_input")
            self.assertEqual(error.title, "Unknown_Input")
            self.assertIn("scorA", error.detail)
            self.assertEqual(error.errors, [{"path": "scorA", "message": "unknown input"}])
            self.assertEqual(error.request_id, "req_fake400")
            self.assertIsNone(error.retry_after)
            self.assertEqual(error.problem["closest"], "scoreA")
            self.assertIn("400 unknown_input", str(error))
            self.assertIn("req_fake400", str(error))

    def test_a_non_json_error_is_typed_by_status(self) -> None:
        with FakeServer() as fake:
            client, _ = client_for(fake)
            fake.queue(answer(502, raw=b"<html>Bad gateway</html>", content_type="text/html"), answer(500, raw=b""))
            with self.assertRaises(ApiError) as caught:
                client.me()
            self.assertEqual((caught.exception.status, caught.exception.code), (502, "http_502"))
            self.assertEqual(caught.exception.title, "Bad Gateway")
            self.assertIn("<html>Bad gateway</html>", caught.exception.detail)
            self.assertEqual(caught.exception.request_id, "req_fake502")
            self.assertEqual(caught.exception.errors, [])
            with self.assertRaises(ApiError) as caught:
                client.me()
            self.assertEqual(caught.exception.code, "http_500")

    def test_a_redirect_is_not_followed(self) -> None:
        with FakeServer() as fake:
            client, _ = client_for(fake)
            fake.queue(answer(302, raw=b"", headers={"Location": fake.url + "/elsewhere"}))
            with self.assertRaises(ApiError) as caught:
                client.me()
            self.assertEqual(caught.exception.code, "http_302")
            self.assertEqual(len(fake.requests), 1)

    def test_a_refused_connection_is_a_transport_error(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        client = onair.Client(api_key=KEY, base_url=f"http://127.0.0.1:{port}")
        with self.assertRaises(TransportError) as caught:
            client.channels.create({"name": "x"}, idempotency_key="retry-me")
        error = caught.exception
        self.assertIsInstance(error, OnairError)
        self.assertNotIsInstance(error, ApiError)
        self.assertEqual(error.method, "POST")
        self.assertEqual(error.url, f"http://127.0.0.1:{port}/v1/channels")
        self.assertEqual(error.idempotency_key, "retry-me")
        self.assertIsNotNone(error.__cause__)

    def test_a_timeout_is_a_transport_error(self) -> None:
        def slow(_request: Recorded):  # type: ignore[no-untyped-def]
            time.sleep(1.0)
            return answer(200, {})

        with FakeServer() as fake:
            fake.queue(slow)
            client = onair.Client(api_key=KEY, base_url=fake.url, timeout=0.2)
            started = time.monotonic()
            with self.assertRaises(TransportError) as caught:
                client.me()
            self.assertLess(time.monotonic() - started, 0.9)
            self.assertIn("timed out", str(caught.exception))


class Pages(unittest.TestCase):
    def test_iterate_follows_next_cursor(self) -> None:
        with FakeServer() as fake:
            client, _ = client_for(fake)
            fake.queue(
                answer(200, {"data": [{"id": "ch_1"}, {"id": "ch_2"}], "nextCursor": "ch_2"}),
                answer(200, {"data": [], "nextCursor": "ch_3"}),  # an empty page with a cursor is followed
                answer(200, {"data": [{"id": "ch_4"}], "nextCursor": None}),
            )
            items = client.channels.iterate(limit=2)
            self.assertEqual(fake.requests, [], "nothing is fetched before the first item is asked for")
            self.assertEqual([c["id"] for c in items], ["ch_1", "ch_2", "ch_4"])
            self.assertEqual([query_of(r) for r in fake.requests],
                             [{"limit": "2"}, {"limit": "2", "cursor": "ch_2"}, {"limit": "2", "cursor": "ch_3"}])

    def test_events_since_is_sent_on_the_first_page_only(self) -> None:
        import datetime

        with FakeServer() as fake:
            client, _ = client_for(fake)
            fake.queue(
                answer(200, {"data": [{"id": "evt_1"}], "nextCursor": "evt_1"}),
                answer(200, {"data": [{"id": "evt_2"}], "nextCursor": None}),
            )
            since = datetime.datetime(2026, 11, 23, 20, 38, 13, 884000, tzinfo=datetime.timezone.utc)
            ids = [e["id"] for e in client.events.iterate(channel_id="ch_1", since=since)]
            self.assertEqual(ids, ["evt_1", "evt_2"])
            self.assertEqual(query_of(fake.requests[0]), {"channelId": "ch_1", "since": "2026-11-23T20:38:13.884Z"})
            self.assertEqual(query_of(fake.requests[1]), {"channelId": "ch_1", "cursor": "evt_1"})

    def test_a_cursor_that_does_not_move_stops(self) -> None:
        with FakeServer() as fake:
            client, _ = client_for(fake)
            fake.queue(*[answer(200, {"data": [], "nextCursor": "same"})] * 3)
            with self.assertRaises(OnairError):
                list(client.keys.iterate())
            self.assertEqual(len(fake.requests), 2)


class HookPosts(unittest.TestCase):
    def test_a_signed_post_by_token_carries_no_api_key(self) -> None:
        with FakeServer() as fake:
            client, _ = client_for(fake)
            fake.queue(answer(200, {"frame": 7, "applied": {"scoreA": 3}, "ignored": []}))
            result = client.hooks.post("tok123", {"home_score": 3}, secret="whsec_s")
            self.assertEqual(result["applied"], {"scoreA": 3})
            sent = fake.requests[0]
            self.assertEqual((sent.method, sent.path), ("POST", "/v1/hooks/tok123"))
            self.assertNotIn("authorization", sent.headers)
            self.assertEqual(sent.headers["content-type"], "application/json")
            self.assertEqual(sent.body, b'{"home_score":3}')
            expected = webhooks.signature(sent.body, "whsec_s", sent.headers["x-service-timestamp"])
            self.assertEqual(sent.headers["x-service-signature"], expected)
            self.assertLessEqual(abs(int(sent.headers["x-service-timestamp"]) - time.time()), 5)

    def test_a_post_by_url_sends_the_bytes_given(self) -> None:
        with FakeServer() as fake:
            client, _ = client_for(fake)
            fake.queue(answer(200, {"frame": None, "applied": {}, "ignored": ["x"], "dryRun": True}))
            raw = b'{ "x" : 1 }'
            client.hooks.post(f"{fake.url}/v1/hooks/abc", raw, dry_run=True)
            sent = fake.requests[0]
            self.assertEqual(sent.path, "/v1/hooks/abc?dryRun=1")
            self.assertEqual(sent.body, raw)
            self.assertNotIn("x-service-signature", sent.headers)

    def test_each_attempt_is_signed(self) -> None:
        with FakeServer() as fake:
            client, sleeps = client_for(fake)
            fake.queue(problem(429, "rate_limited", headers={"Retry-After": "1"}), answer(200, {"frame": 1}))
            client.hooks.post("tok", {"a": 1}, secret="whsec_s")
            self.assertEqual(sleeps, [1])
            for sent in fake.requests:
                ts = sent.headers["x-service-timestamp"]
                self.assertEqual(sent.headers["x-service-signature"], webhooks.signature(sent.body, "whsec_s", ts))


if __name__ == "__main__":
    unittest.main()
