"""The SDK against a real onair server (the root test run starts one: test/helpers/sdk-server.ts).

Environment: ONAIR_TEST_URL, ONAIR_TEST_KEY (a ``*`` key), ONAIR_TEST_TLS_CERT and ONAIR_TEST_TLS_KEY (PEM files the
server trusts for webhook deliveries to 127.0.0.1). Without them every test here is skipped; by hand, run
``npm run sdk:server`` at the root and export what it prints.

The server's ``creates`` bucket allows 60 a minute per workspace: a run of this suite uses about 25.
"""

from __future__ import annotations

import copy
import io
import json
import os
import queue
import ssl
import threading
import time
import unittest
import uuid
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Tuple

import onair
from onair import ApiError, WebhookVerificationError, webhooks
from onair.models import Channel, InputsResult, Scene, Template, WebhookAttempt, WebhookCreated

URL = os.environ.get("ONAIR_TEST_URL")
KEY = os.environ.get("ONAIR_TEST_KEY")
TLS_CERT = os.environ.get("ONAIR_TEST_TLS_CERT")
TLS_KEY = os.environ.get("ONAIR_TEST_TLS_KEY")

SKIP_REASON = (
    "integration tests need a running onair test server: set ONAIR_TEST_URL and ONAIR_TEST_KEY "
    "(`npm run sdk:server` at the repository root prints them)"
)
TLS_SKIP_REASON = "the webhook receiver needs ONAIR_TEST_TLS_CERT and ONAIR_TEST_TLS_KEY (`npm run sdk:server`)"


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


_SHARED: Dict[str, Any] = {}


def shared() -> Dict[str, Any]:
    """Made once for the whole module (creates are rationed), on first use: a skipped run makes nothing."""
    if not _SHARED:
        client = onair.Client(api_key=KEY, base_url=URL or "")
        templates = {t["id"]: t for t in client.templates.list()["data"]}
        channel = client.channels.create({"name": unique("py-main")})
        definition = copy.deepcopy(templates["scoreboard"]["definition"])
        scene = client.scenes.create(channel["id"], {"name": "Score", "definition": definition})
        _SHARED.update(client=client, templates=templates, channel=channel, scene=scene)
    return _SHARED


@unittest.skipUnless(URL and KEY, SKIP_REASON)
class AgainstAServer(unittest.TestCase):
    """Shared fixtures: a client, the templates, one channel with a scoreboard scene made from its definition."""

    client: onair.Client
    templates: Dict[str, Template]
    channel: Channel
    scene: Scene

    @classmethod
    def setUpClass(cls) -> None:
        fixture = shared()
        cls.client = fixture["client"]
        cls.templates = fixture["templates"]
        cls.channel = fixture["channel"]
        cls.scene = fixture["scene"]

    def make_channel_with_scoreboard(self) -> Tuple[Channel, Scene]:
        channel = self.client.channels.create({"name": unique("py")})
        scene = self.client.scenes.create(channel["id"], {"name": "Score", "template": "scoreboard"})
        return channel, scene


class ChannelsScenesInputs(AgainstAServer):
    def test_a_scene_from_a_template_definition(self) -> None:
        # The built-in templates (more come with releases): the classic five at least.
        for name in ("scoreboard", "lower-third", "logo-bug", "countdown", "final-score"):
            self.assertIn(name, self.templates)
        self.assertTrue(self.channel["id"].startswith("ch_"))
        self.assertTrue(self.scene["id"].startswith("sc_"))
        self.assertEqual(self.scene["channelId"], self.channel["id"])
        self.assertEqual(self.scene["layer"], self.templates["scoreboard"]["layer"])
        self.assertIn("scoreA", [i["name"] for i in self.scene["inputs"]])
        fetched = self.client.scenes.get(self.channel["id"], self.scene["id"])
        self.assertEqual(fetched["definition"], self.scene["definition"])

    def test_patch_inputs_then_read_the_state(self) -> None:
        result = self.client.channels.patch_inputs(self.channel["id"], {"scoreA": 3, "home": "LEEDS"})
        self.assertEqual(result["channelId"], self.channel["id"])
        self.assertEqual(result["inputs"], {"scoreA": 3, "home": "LEEDS"})
        self.assertIsInstance(result["frame"], int)
        state = self.client.channels.get_state(self.channel["id"])
        self.assertEqual(state["inputs"]["scoreA"], 3)
        self.assertEqual(state["inputs"]["home"], "LEEDS")
        self.assertGreaterEqual(state["frame"], result["frame"])
        self.assertIn("gameClock", state["clocks"])
        # No output page has connected: none listed, none refused.
        outputs = self.client.channels.list_outputs(self.channel["id"])
        self.assertEqual(outputs, {"data": [], "nextCursor": None, "refused": None})

    def test_a_scene_dry_run_saves_nothing(self) -> None:
        dry = self.client.scenes.create(self.channel["id"], {"name": "Card", "template": "lower-third"}, dry_run=True)
        self.assertEqual(dry["id"], "sc_dryrun")
        ids = [s["id"] for s in self.client.scenes.iterate(self.channel["id"])]
        self.assertIn(self.scene["id"], ids)
        self.assertNotIn("sc_dryrun", ids)

    def test_scene_versions_list_and_restore(self) -> None:
        channel, scene = self.make_channel_with_scoreboard()
        definition = dict(scene["definition"], layer=scene["layer"] + 1)
        self.client.scenes.replace(channel["id"], scene["id"], {"name": "Score 2", "definition": definition})
        versions = self.client.scenes.versions(channel["id"], scene["id"])["data"]
        self.assertEqual([(v["version"], v["name"]) for v in versions], [(2, "Score 2"), (1, "Score")])
        self.assertEqual(versions[0]["savedBy"]["type"], "key")
        restored = self.client.scenes.restore_version(channel["id"], scene["id"], 1)
        self.assertEqual(restored["name"], "Score")
        self.assertEqual(restored["definition"], scene["definition"])
        self.assertEqual(self.client.scenes.versions(channel["id"], scene["id"])["data"][0]["version"], 3)

    def test_me(self) -> None:
        me = self.client.me()
        self.assertEqual(me["permissions"], ["*"])
        self.assertIn("key", me)


class Pagination(AgainstAServer):
    def test_limit_2_over_3_channels_and_the_iterator_sees_all(self) -> None:
        made = [self.client.channels.create({"name": unique("py-page")})["id"] for _ in range(3)]
        first = self.client.channels.list(limit=2)
        self.assertEqual(len(first["data"]), 2)
        self.assertIsNotNone(first["nextCursor"])
        second = self.client.channels.list(limit=2, cursor=first["nextCursor"])
        self.assertNotIn(second["data"][0]["id"], [c["id"] for c in first["data"]])
        seen = [c["id"] for c in self.client.channels.iterate(limit=2)]
        self.assertEqual(len(seen), len(set(seen)), "no channel twice")
        for channel_id in made + [self.channel["id"]]:
            self.assertIn(channel_id, seen)
        self.assertEqual(seen, sorted(seen), "creation order")

    def test_events_iterate_over_small_pages(self) -> None:
        for score in (1, 2, 3):
            self.client.channels.patch_inputs(self.channel["id"], {"scoreB": score})
        events = list(
            self.client.events.iterate(channel_id=self.channel["id"], type="channel.bind_updated", limit=2)
        )
        scores = [e["data"]["inputs"].get("scoreB") for e in events]
        self.assertEqual([s for s in scores if s is not None][-3:], [1, 2, 3])
        self.assertTrue(all(e["channelId"] == self.channel["id"] for e in events))


class Playout(AgainstAServer):
    def test_preview_take_and_the_state_shows_program(self) -> None:
        channel, scene = self.channel, self.scene
        cued = self.client.playout.preview(channel["id"], scene["id"])
        self.assertEqual([p["sceneId"] for p in cued["preview"]], [scene["id"]])
        taken = self.client.playout.take(channel["id"])
        self.assertEqual([p["sceneId"] for p in taken["program"]], [scene["id"]])
        self.assertEqual(taken["preview"], [])
        state = self.client.channels.get_state(channel["id"])
        self.assertEqual([(p["sceneId"], p["layer"]) for p in state["program"]], [(scene["id"], 10)])
        fired = self.client.playout.fire_trigger(channel["id"], "flashScoreA")
        self.assertIsInstance(fired["frame"], int)
        on_layer = self.client.playout.fire_trigger(channel["id"], "flashScoreA", {"layer": 10, "payload": {"n": 1}})
        self.assertIsInstance(on_layer["frame"], int)
        with self.assertRaises(ApiError) as elsewhere:
            self.client.playout.fire_trigger(channel["id"], "flashScoreA", {"layer": 11})
        self.assertEqual((elsewhere.exception.status, elsewhere.exception.code), (404, "unknown_trigger"))
        clock = self.client.playout.clock(channel["id"], "gameClock", "set", 60000)
        self.assertEqual(clock["clock"]["ms"], 60000)
        with self.assertRaises(ApiError) as caught:
            self.client.playout.take(channel["id"])
        self.assertEqual((caught.exception.status, caught.exception.code), (409, "preview_empty"))
        cleared = self.client.playout.clear(channel["id"])
        self.assertEqual(cleared["program"], [])


class Problems(AgainstAServer):
    def test_404_not_found_with_a_request_id(self) -> None:
        with self.assertRaises(ApiError) as caught:
            self.client.channels.get("ch_00000000000000000000000000000000")
        error = caught.exception
        self.assertEqual((error.status, error.code, error.title), (404, "not_found", "Not found"))
        self.assertTrue(error.request_id, "X-Request-Id is carried")
        self.assertIn(error.request_id or "", str(error))

    def test_400_lists_the_fields_at_fault(self) -> None:
        with self.assertRaises(ApiError) as caught:
            self.client.channels.patch_inputs(self.channel["id"], {"scoreA": "three"})
        error = caught.exception
        self.assertEqual((error.status, error.code), (400, "invalid_request"))
        self.assertEqual([e["path"] for e in error.errors], ["scoreA"])
        self.assertTrue(error.errors[0]["message"])

    def test_unknown_input_carries_its_members(self) -> None:
        with self.assertRaises(ApiError) as caught:
            self.client.channels.patch_inputs(self.channel["id"], {"scorA": 1})
        self.assertEqual(caught.exception.code, "unknown_input")
        self.assertEqual(caught.exception.problem.get("closest"), "scoreA")


class RateLimit(AgainstAServer):
    def test_40_patches_at_once_all_succeed_and_some_waited(self) -> None:
        channel, _scene = self.make_channel_with_scoreboard()
        results: List[Optional[InputsResult]] = [None] * 40
        failures: List[BaseException] = []

        def patch(i: int) -> None:
            try:
                results[i] = self.client.channels.patch_inputs(channel["id"], {"scoreA": i})
            except BaseException as error:  # reported below, on the test's thread
                failures.append(error)

        started = time.monotonic()
        with self.assertLogs("onair", "INFO") as logs:
            threads = [threading.Thread(target=patch, args=(i,)) for i in range(40)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(20)
        self.assertEqual(failures, [])
        self.assertTrue(all(r is not None and isinstance(r["frame"], int) for r in results))
        waits = [r for r in logs.records if "rate_limited" in r.getMessage()]
        self.assertGreaterEqual(len(waits), 1, "at least one patch met a 429 and waited")
        self.assertGreaterEqual(time.monotonic() - started, 1.0, "a wait is at least Retry-After (1 s)")


class Idempotency(AgainstAServer):
    def test_the_same_key_twice_makes_one_channel(self) -> None:
        key = str(uuid.uuid4())
        name = unique("py-idem")
        first = self.client.channels.create({"name": name}, idempotency_key=key)
        again = self.client.request("POST", "/v1/channels", json={"name": name}, idempotency_key=key)
        self.assertEqual(again.status, 201)
        self.assertTrue(again.replayed, "the second answer is the stored one (Idempotent-Replayed: true)")
        self.assertEqual(again.data["id"], first["id"])
        named = [c for c in self.client.channels.iterate(limit=100) if c["name"] == name]
        self.assertEqual(len(named), 1, "one resource")
        with self.assertRaises(ApiError) as caught:
            self.client.channels.create({"name": name + "-other"}, idempotency_key=key)
        self.assertEqual((caught.exception.status, caught.exception.code), (409, "conflict"))


class _Receiver:
    """An HTTPS endpoint on 127.0.0.1 that keeps every delivery's raw body and headers and answers 204."""

    def __init__(self, cert: str, key: str) -> None:
        self.deliveries: "queue.Queue[Tuple[Dict[str, str], bytes]]" = queue.Queue()
        deliveries = self.deliveries

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                deliveries.put((dict(self.headers.items()), raw))
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.url = f"https://127.0.0.1:{self.server.server_address[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def wait_for(self, match: Any, timeout: float = 10.0) -> Tuple[Dict[str, str], bytes]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("no matching webhook delivery arrived in time")
            try:
                headers, raw = self.deliveries.get(timeout=left)
            except queue.Empty:
                continue
            if match(json.loads(raw)):
                return headers, raw

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@unittest.skipUnless(TLS_CERT and TLS_KEY, TLS_SKIP_REASON)
class WebhookDeliveries(AgainstAServer):
    receiver: _Receiver
    subscription: WebhookCreated

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.receiver = _Receiver(TLS_CERT or "", TLS_KEY or "")
        cls.addClassCleanup(cls.receiver.close)
        cls.subscription = cls.client.webhooks.create(
            {"url": cls.receiver.url, "events": ["channel.bind_updated"], "channelId": cls.channel["id"]}
        )
        cls.addClassCleanup(cls.client.webhooks.delete, cls.subscription["id"])

    def test_a_real_delivery_verifies_and_tampering_is_refused(self) -> None:
        secret = self.subscription["secret"]
        self.assertTrue(secret.startswith("whsec_"))
        marker = unique("delivery")
        self.client.channels.patch_inputs(self.channel["id"], {"home": marker})
        headers, raw = self.receiver.wait_for(lambda e: e["data"].get("inputs", {}).get("home") == marker)

        event = webhooks.verify(raw, headers, secret)  # the headers exactly as they came
        headers = {name.lower(): value for name, value in headers.items()}
        self.assertEqual(event["type"], "channel.bind_updated")
        self.assertEqual(event["channelId"], self.channel["id"])
        self.assertEqual(event["data"]["inputs"], {"home": marker})
        self.assertEqual(event["id"], headers["x-service-delivery"])

        def refused(body: bytes, sent: Dict[str, str], key: str, **options: Any) -> str:
            with self.assertRaises(WebhookVerificationError) as caught:
                webhooks.verify(body, sent, key, **options)
            return caught.exception.code

        tampered = raw.replace(marker.encode("utf-8"), b"X" + marker.encode("utf-8")[1:])
        self.assertNotEqual(tampered, raw)
        self.assertEqual(refused(tampered, headers, secret), "signature_mismatch")
        self.assertEqual(refused(raw, headers, "whsec_" + "A" * 43), "signature_mismatch")
        timestamp = int(headers["x-service-timestamp"])
        self.assertEqual(refused(raw, headers, secret, now=timestamp + 301), "timestamp_out_of_tolerance")
        stale = dict(headers, **{"x-service-timestamp": str(timestamp - 3600)})
        self.assertEqual(refused(raw, stale, secret), "timestamp_out_of_tolerance")
        other_id = dict(headers, **{"x-service-delivery": "evt_" + "0" * 32})
        self.assertEqual(refused(raw, other_id, secret), "delivery_mismatch")

        attempts: List[WebhookAttempt] = []
        for _ in range(50):  # the log is written when the attempt ends, a moment after our 204
            log = self.client.webhooks.iter_deliveries(self.subscription["id"])
            attempts = [a for a in log if a["eventId"] == event["id"]]
            if attempts:
                break
            time.sleep(0.1)
        self.assertEqual([(a["outcome"], a["status"]) for a in attempts], [("succeeded", 204)])

    def test_ping_is_signed_like_a_delivery(self) -> None:
        result = self.client.webhooks.ping(self.subscription["id"])
        self.assertEqual((result["ok"], result["status"]), (True, 204))
        headers, raw = self.receiver.wait_for(lambda e: e["type"] == "webhook.ping")
        event = webhooks.verify(raw, headers, self.subscription["secret"])
        self.assertEqual(event["data"]["webhookId"], self.subscription["id"])

    def test_rolling_the_secret_signs_with_both_during_the_overlap(self) -> None:
        old = self.subscription["secret"]
        rolled = self.client.webhooks.roll_secret(self.subscription["id"], {"overlapSeconds": 600})
        self.assertTrue(rolled["secret"].startswith("whsec_"))
        self.assertNotEqual(rolled["secret"], old)
        self.assertIsNotNone(rolled["previousSecretExpiresAt"])
        marker = unique("rolled")
        self.client.channels.patch_inputs(self.channel["id"], {"home": marker})
        headers, raw = self.receiver.wait_for(lambda e: e["data"].get("inputs", {}).get("home") == marker)
        lower = {name.lower(): value for name, value in headers.items()}
        self.assertEqual(len(lower["x-service-signature"].split(" ")), 2)
        self.assertEqual(webhooks.verify(raw, headers, rolled["secret"])["data"]["inputs"], {"home": marker})
        self.assertEqual(webhooks.verify(raw, headers, old)["data"]["inputs"], {"home": marker})
        with self.assertRaises(WebhookVerificationError) as caught:
            webhooks.verify(raw, headers, "whsec_" + "B" * 43)
        self.assertEqual(caught.exception.code, "signature_mismatch")


class IncomingHookSignatures(AgainstAServer):
    def test_a_signed_post_is_accepted_and_a_wrong_secret_refused(self) -> None:
        hook = self.client.incoming_hooks.create(
            self.channel["id"], {"name": "Scorekeeper", "mapping": {"home_score": "scoreA"}, "requireSignature": True}
        )
        self.addCleanup(self.client.incoming_hooks.delete, self.channel["id"], hook["id"])
        self.assertTrue((hook["secret"] or "").startswith("whsec_"))
        # A client without an API key: the hook's URL is the credential.
        anonymous = onair.Client(api_key="", base_url=URL or "")

        answer = anonymous.hooks.post(hook["url"], {"home_score": 7, "venue": "Arena"}, secret=hook["secret"])
        self.assertEqual(answer["applied"], {"scoreA": 7})
        self.assertEqual(answer["ignored"], ["venue"])
        self.assertIsInstance(answer["frame"], int)
        self.assertEqual(self.client.channels.get_state(self.channel["id"])["inputs"]["scoreA"], 7)

        token = hook["url"].rsplit("/", 1)[1]
        dry = anonymous.hooks.post(token, {"home_score": 8}, secret=hook["secret"], dry_run=True)
        self.assertEqual((dry["applied"], dry["frame"]), ({"scoreA": 8}, None))

        for secret in ("whsec_" + "B" * 43, None):
            with self.subTest(secret=secret), self.assertRaises(ApiError) as caught:
                anonymous.hooks.post(hook["url"], {"home_score": 9}, secret=secret)
            self.assertEqual((caught.exception.status, caught.exception.code), (401, "bad_signature"))
        self.assertEqual(self.client.channels.get_state(self.channel["id"])["inputs"]["scoreA"], 7)

        log = self.client.incoming_hooks.deliveries(self.channel["id"], hook["id"])["data"]
        self.assertEqual([d["status"] for d in log], [200, 200], "the posts past the door, newest first")
        refused = self.client.incoming_hooks.refusals(self.channel["id"], hook["id"])["data"]
        self.assertEqual(refused[0]["status"], 401, "refused at the door: one line per second, written at once")


class _Feed(BaseHTTPRequestHandler):
    """A local feed for data sources: JSON at any path, a CSV at /results.csv."""

    home = 1

    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        if self.path == "/results.csv":
            body, kind = b"Game,Home Score\r\nSemi,3\r\nFinal,5\r\n", "text/csv"
        else:
            body, kind = json.dumps({"home": _Feed.home, "venue": "Arena"}).encode(), "application/json"
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the standard library's name)
        pass


class DataSources(AgainstAServer):
    def setUp(self) -> None:
        self.feed = ThreadingHTTPServer(("127.0.0.1", 0), _Feed)
        threading.Thread(target=self.feed.serve_forever, daemon=True).start()
        self.addCleanup(self.feed.server_close)
        self.addCleanup(self.feed.shutdown)
        self.origin = f"http://127.0.0.1:{self.feed.server_address[1]}"

    def score(self, channel: Channel) -> Any:
        return self.client.channels.get_state(channel["id"])["inputs"]["scoreA"]

    def until(self, check: Any, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while not check():
            if time.monotonic() > deadline:
                self.fail("timed out")
            time.sleep(0.05)

    def test_a_json_source_tested_created_refreshed_paused_and_deleted(self) -> None:
        channel, _ = self.make_channel_with_scoreboard()
        body: Any = {"type": "json_url", "url": f"{self.origin}/game.json", "mapping": {"home": "scoreA"}}
        dry = self.client.sources.test(channel["id"], body)
        self.assertEqual((dry["values"], dry["unmapped"], dry["error"]), ({"scoreA": 1}, ["venue"], None))
        source = self.client.sources.create(channel["id"], {**body, "intervalMs": 3_600_000, "name": "Feed"})
        self.until(lambda: self.score(channel) == 1)
        _Feed.home = 4
        try:
            refreshed = self.client.sources.refresh(channel["id"], source["id"])
        finally:
            _Feed.home = 1
        self.assertEqual(refreshed["status"]["state"], "ok")
        self.assertEqual(self.score(channel), 4)
        log = self.client.sources.fetches(channel["id"], source["id"])["data"]
        self.assertEqual([f["changed"] for f in log], [True, True])
        self.assertEqual(self.client.sources.pause(channel["id"], source["id"])["status"]["state"], "paused")
        with self.assertRaises(ApiError) as caught:
            self.client.sources.refresh(channel["id"], source["id"])
        self.assertEqual((caught.exception.status, caught.exception.code), (409, "conflict"))
        self.assertFalse(self.client.sources.resume(channel["id"], source["id"])["paused"])
        renamed = self.client.sources.update(channel["id"], source["id"], {"name": "Renamed"})
        self.assertEqual(renamed["name"], "Renamed")
        self.assertEqual(self.client.sources.get(channel["id"], source["id"])["name"], "Renamed")
        self.assertEqual([s["id"] for s in self.client.sources.iterate(channel["id"])], [source["id"]])
        self.client.sources.delete(channel["id"], source["id"])
        with self.assertRaises(ApiError) as gone:
            self.client.sources.get(channel["id"], source["id"])
        self.assertEqual(gone.exception.code, "not_found")

    def test_a_csv_cursor_moves_and_a_bad_interval_is_named(self) -> None:
        channel, _ = self.make_channel_with_scoreboard()
        source = self.client.sources.create(
            channel["id"],
            {
                "type": "csv_url",
                "url": f"{self.origin}/results.csv",
                "intervalMs": 3_600_000,
                "row": {"by": "cursor"},
                "mapping": {"Home_Score": "scoreA"},
            },
        )
        self.until(lambda: self.score(channel) == 3)
        self.assertEqual(self.client.sources.row(channel["id"], source["id"], {"move": "next"})["status"]["cursor"], 2)
        self.assertEqual(self.score(channel), 5)
        self.assertEqual(self.client.sources.row(channel["id"], source["id"], {"number": 1})["status"]["cursor"], 1)
        with self.assertRaises(ApiError) as caught:
            self.client.sources.create(channel["id"], {"type": "json_url", "url": f"{self.origin}/x", "intervalMs": 10})
        self.assertEqual(caught.exception.errors[0]["path"], "intervalMs")


class Keys(AgainstAServer):
    def test_create_read_list_and_revoke_a_key(self) -> None:
        created = self.client.keys.create(
            {"name": unique("py-key"), "permissions": ["channels:read"], "channelIds": [self.channel["id"]]}
        )
        self.assertTrue(created["secret"].startswith("onair_sk_"))
        limited = onair.Client(api_key=created["secret"], base_url=URL or "")
        self.assertEqual([c["id"] for c in limited.channels.iterate()], [self.channel["id"]])
        self.assertIn(created["id"], [k["id"] for k in self.client.keys.iterate(limit=1)])
        self.client.keys.revoke(created["id"])
        self.assertIsNotNone(self.client.keys.get(created["id"])["revokedAt"])
        with self.assertRaises(ApiError) as caught:
            limited.me()
        self.assertEqual(caught.exception.code, "unauthorized")


class Assets(AgainstAServer):
    # The smallest GIF: typed from its bytes, whatever its name says.
    GIF = bytes.fromhex("47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b")

    def test_upload_list_read_and_delete_an_asset(self) -> None:
        asset = self.client.assets.upload(self.GIF, "dot.gif")
        self.assertEqual((asset["type"], asset["width"], asset["height"]), ("image/gif", 1, 1))
        self.assertEqual(asset["path"], f"/assets/{asset['sha256']}.gif")
        self.assertEqual(self.client.assets.upload(self.GIF, "again.gif")["id"], asset["id"])
        self.assertIn(asset["id"], [a["id"] for a in self.client.assets.iterate(limit=1)])
        self.assertEqual(self.client.assets.get(asset["id"])["sha256"], asset["sha256"])
        self.client.assets.delete(asset["id"])
        with self.assertRaises(ApiError) as caught:
            self.client.assets.get(asset["id"])
        self.assertEqual(caught.exception.code, "not_found")


class Graphics(AgainstAServer):
    MANIFEST = {
        "$schema": "https://ograf.ebu.io/v1/specification/json-schemas/graphics/schema.json",
        "id": "com.example.sdk",
        "version": "1",
        "name": "SDK graphic",
        "main": "graphic.mjs",
        "supportsRealTime": True,
        "supportsNonRealTime": False,
        "schema": {"type": "object", "properties": {"name": {"type": "string"}}},
    }

    def zipped(self) -> bytes:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as z:
            z.writestr("sdk.ograf.json", json.dumps(self.MANIFEST))
            z.writestr("graphic.mjs", "export default class extends HTMLElement {}")
        return out.getvalue()

    def test_import_list_read_and_delete_a_graphic(self) -> None:
        uploaded = self.client.graphics.upload(self.zipped())
        graphic = uploaded["data"][0]
        self.assertEqual((graphic["graphicId"], graphic["version"], graphic["created"]), ("com.example.sdk", "1", True))
        self.assertEqual([i["name"] for i in graphic["inputs"]], ["name"])
        self.assertFalse(self.client.graphics.upload(self.zipped())["data"][0]["created"])
        self.assertIn(graphic["id"], [g["id"] for g in self.client.graphics.iterate(limit=1)])
        self.assertEqual(self.client.graphics.get(graphic["id"])["name"], "SDK graphic")
        self.client.graphics.delete(graphic["id"])
        with self.assertRaises(ApiError) as caught:
            self.client.graphics.get(graphic["id"])
        self.assertEqual(caught.exception.code, "not_found")


if __name__ == "__main__":
    unittest.main()
