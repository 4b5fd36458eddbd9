"""Show preparation against a real onair server: rundowns, items, play next, update on air, undo, the schedule.

Same environment as test_integration.py (``npm run sdk:server``); skipped without it.
"""

from __future__ import annotations

import datetime
import unittest
from typing import Tuple

from onair import ApiError
from onair.models import Channel, Scene

from .test_integration import KEY, SKIP_REASON, URL, AgainstAServer, unique


@unittest.skipUnless(URL and KEY, SKIP_REASON)
class Rundowns(AgainstAServer):
    def strap_channel(self) -> Tuple[Channel, Scene]:
        """A channel with a strap whose ``name`` belongs to each instance (an item input)."""
        channel = self.client.channels.create({"name": unique("py-rundown")})
        definition = {
            "layer": 20,
            "inputs": [{"name": "name", "type": "text", "default": "", "scope": "item"}],
            "elements": [
                {"type": "text", "x": 100, "y": 900, "width": 800, "height": 80, "text": "{name}", "fontSize": 48}
            ],
        }
        scene = self.client.scenes.create(channel["id"], {"name": "Strap", "definition": definition})
        return channel, scene

    def test_create_add_play_next_update_undo_redo_and_stop(self) -> None:
        channel, scene = self.strap_channel()
        ch = channel["id"]
        rundown = self.client.rundowns.create(ch, {"name": "Match"})
        self.assertEqual((rundown["name"], rundown["items"], rundown["focus"]), ("Match", [], None))
        rd = rundown["id"]
        anna = self.client.rundowns.add_item(ch, rd, {"sceneId": scene["id"], "values": {"name": "Anna"}})
        ben = self.client.rundowns.add_item(ch, rd, {"sceneId": scene["id"], "values": {"name": "Ben"}})
        copy = self.client.rundowns.duplicate_item(ch, rd, ben["id"])
        self.assertEqual((copy["values"], copy["state"]), ({"name": "Ben"}, "ready"))
        self.assertEqual([r["id"] for r in self.client.rundowns.list(ch)["data"]], [rd])
        items = self.client.rundowns.get(ch, rd)["items"]
        self.assertEqual([i["id"] for i in items], [anna["id"], ben["id"], copy["id"]])

        played = self.client.rundowns.play_next(ch, rd)
        self.assertEqual([(p["itemId"], p["values"]) for p in played["program"]], [(anna["id"], {"name": "Anna"})])
        updated = self.client.playout.update(ch, {"values": {"name": "Anna (updated)"}})
        self.assertEqual(updated["program"][0]["values"], {"name": "Anna (updated)"})
        self.assertEqual(self.client.playout.undo(ch)["program"][0]["values"], {"name": "Anna"})
        self.assertEqual(self.client.playout.redo(ch)["program"][0]["values"], {"name": "Anna (updated)"})

        self.assertEqual(self.client.rundowns.focus(ch, rd, {"itemId": copy["id"]})["focus"], copy["id"])
        cued = self.client.rundowns.cue(ch, rd)
        self.assertEqual([p["itemId"] for p in cued["preview"]], [copy["id"]])
        self.assertEqual(self.client.rundowns.stop(ch, rd, anna["id"])["program"], [])
        states = [i["state"] for i in self.client.rundowns.get(ch, rd)["items"]]
        self.assertEqual(states, ["done", "ready", "preview"])

        on_air = self.client.playout.program(ch, {"itemId": ben["id"]})
        self.assertEqual([(p["itemId"], p["values"]) for p in on_air["program"]], [(ben["id"], {"name": "Ben"})])
        with self.assertRaises(ApiError) as caught:
            self.client.playout.continue_(ch)
        self.assertEqual((caught.exception.status, caught.exception.code), (404, "unknown_trigger"))

        self.client.rundowns.delete_item(ch, rd, ben["id"])
        version = self.client.rundowns.get(ch, rd)["version"]
        self.assertEqual(self.client.rundowns.update(ch, rd, {"name": "Final", "version": version})["name"], "Final")
        self.client.rundowns.delete(ch, rd)
        with self.assertRaises(ApiError) as gone:
            self.client.rundowns.get(ch, rd)
        self.assertEqual(gone.exception.code, "not_found")

    def test_a_stale_edit_is_a_version_conflict_with_the_current_item(self) -> None:
        channel, scene = self.strap_channel()
        ch = channel["id"]
        rd = self.client.rundowns.create(ch, {"name": "Match"})["id"]
        item = self.client.rundowns.add_item(ch, rd, {"sceneId": scene["id"], "label": "First"})
        edited = self.client.rundowns.update_item(ch, rd, item["id"], {"label": "Mine", "version": 1})
        self.assertEqual(edited["version"], 2)
        with self.assertRaises(ApiError) as caught:
            self.client.rundowns.update_item(ch, rd, item["id"], {"label": "Theirs", "version": 1})
        conflict = caught.exception
        self.assertEqual((conflict.status, conflict.code), (409, "version_conflict"))
        self.assertEqual((conflict.current["id"], conflict.current["label"]), (item["id"], "Mine"))
        self.assertEqual((conflict.current["version"], conflict.problem["version"]), (2, 2))
        with self.assertRaises(ApiError) as nothing:
            self.client.playout.undo(ch)
        self.assertEqual((nothing.exception.status, nothing.exception.code), (409, "nothing_to_undo"))

    def test_schedule_a_take_list_and_cancel_it(self) -> None:
        channel, scene = self.strap_channel()
        ch = channel["id"]
        self.client.playout.preview(ch, {"sceneId": scene["id"], "values": {"name": "Later"}})
        at = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=10)
        scheduled = self.client.schedule.create(ch, at, {"kind": "take"})
        self.assertEqual((scheduled["op"], scheduled["actor"]["type"]), ({"kind": "take"}, "key"))
        self.assertEqual([s["id"] for s in self.client.schedule.list(ch)["data"]], [scheduled["id"]])
        self.client.schedule.cancel(ch, scheduled["id"])
        self.assertEqual(self.client.schedule.list(ch)["data"], [])
        with self.assertRaises(ApiError) as gone:
            self.client.schedule.cancel(ch, scheduled["id"])
        self.assertEqual(gone.exception.code, "not_found")
        past = "2000-01-01T00:00:00Z"
        with self.assertRaises(ApiError) as refused:
            self.client.schedule.create(ch, past, {"kind": "take"})
        self.assertEqual((refused.exception.status, refused.exception.code), (400, "invalid_request"))

    def test_history_lists_a_cue_a_take_and_its_undo_newest_first_with_the_actor(self) -> None:
        channel, scene = self.strap_channel()
        ch = channel["id"]
        key_id = self.client.me()["key"]["id"]
        key = next(k for k in self.client.keys.iterate() if k["id"] == key_id)
        self.client.playout.preview(ch, {"sceneId": scene["id"], "values": {"name": "Anna"}})
        self.client.playout.take(ch)
        self.client.playout.undo(ch)
        page = self.client.history.list(ch)
        actions = page["data"]
        self.assertEqual([a["kind"] for a in actions], ["undo", "take", "cue"])
        self.assertIsNone(page["nextCursor"])
        self.assertEqual(actions[0]["of"], actions[1]["id"])
        self.assertNotIn("of", actions[1])
        for action in actions:
            self.assertEqual(action["actor"], {"type": "key", "id": key["id"], "name": key["name"]})
        self.assertGreater(actions[0]["frame"], actions[2]["frame"])

        first = self.client.history.list(ch, limit=2)
        self.assertEqual([a["id"] for a in first["data"]], [a["id"] for a in actions[:2]])
        rest = self.client.history.list(ch, limit=2, cursor=first["nextCursor"])
        self.assertEqual([a["id"] for a in rest["data"]], [actions[2]["id"]])
        self.assertEqual([a["id"] for a in self.client.history.iterate(ch, limit=1)], [a["id"] for a in actions])

    def test_as_run_lists_what_was_on_program_by_range_and_page_and_as_csv(self) -> None:
        channel, scene = self.strap_channel()
        ch = channel["id"]
        before = datetime.datetime.now(datetime.timezone.utc)
        self.client.playout.program(ch, {"sceneId": scene["id"], "values": {"name": "Anna"}})
        self.client.playout.update(ch, {"values": {"name": "Anna B."}})
        self.client.playout.program(ch, {"sceneId": scene["id"], "values": {"name": "Ben"}})
        self.client.playout.clear(ch)
        page = self.client.as_run.list(ch)
        lines = page["data"]
        self.assertIsNone(page["nextCursor"])
        self.assertEqual([line["values"]["name"] for line in lines], ["Anna", "Ben"])
        self.assertEqual(lines[0]["updatedValues"], {"name": "Anna B."})
        self.assertEqual(lines[0]["takenBy"]["type"], "key")
        for line in lines:
            self.assertIsNotNone(line["endAt"])
            self.assertFalse(line["endInferred"])
        ids = [line["id"] for line in self.client.as_run.iterate(ch, from_=before, limit=1)]
        self.assertEqual(ids, [line["id"] for line in lines])
        self.assertEqual(len(self.client.as_run.list(ch, to=lines[1]["startAt"])["data"]), 1)
        csv_text = self.client.as_run.csv(ch)
        rows = csv_text.rstrip("\r\n").split("\r\n")
        self.assertEqual(rows[0].split(",")[:3], ["id", "layer", "sceneId"])
        self.assertEqual([row.split(",")[0] for row in rows[1:]], [line["id"] for line in lines])
