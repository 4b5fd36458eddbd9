package onair_test

import (
	"encoding/json"
	"reflect"
	"testing"

	onair "github.com/onair-live/onair/sdks/go"
)

// A definition read into the generated types and written back must be the same JSON: scenes made from a
// template's definition depend on it.
func TestSceneDefinitionRoundTrip(t *testing.T) {
	in := `{"version":1,"layer":10,"inputs":[{"name":"home","type":"text","label":"Home","default":"HOME"},
	{"name":"gameClock","type":"clock","default":720000,"direction":"down","stopAt":0},{"name":"on","type":"boolean","default":false}],
	"elements":[{"type":"box","x":0,"y":0,"width":10,"height":10,"fill":{"gradient":{"angle":180,"stops":[{"at":0,"color":"#000"},{"at":1,"color":"#fff"}]}}},
	{"type":"box","x":1,"y":2,"width":3,"height":4,"fill":"{homeColor}","opacity":0},
	{"type":"group","x":0,"y":0,"width":5,"height":5,"children":[{"type":"text","x":0,"y":0,"width":1,"height":1,"text":"{home}","fontSize":42,"fontFamily":"Barlow Condensed"}]},
	{"type":"clock","x":0,"y":0,"width":1,"height":1,"fontSize":10,"clock":"gameClock","format":"m:ss"},
	{"type":"image","x":0,"y":0,"width":1,"height":1,"src":"https://example.com/a.png","fit":"cover"},
	{"type":"sparkle","x":0,"glitter":true}],
	"transitions":{"in":{"type":"slide","from":"left","durationMs":500,"easing":"ease-out"},"out":{"type":"cut","durationMs":0}},
	"triggers":[{"name":"flash","animation":"flash","targets":["panel"],"durationMs":600,"on":"home"},
	{"name":"custom","animation":{"keyframes":[{"at":0,"scale":1},{"at":1,"scale":1.2,"dx":-3}]}}]}`
	var def onair.SceneDefinition
	if err := json.Unmarshal([]byte(in), &def); err != nil {
		t.Fatal(err)
	}
	if def.Elements[0].Box == nil || def.Elements[0].Box.Fill.Gradient == nil || def.Elements[1].Box.Fill.ColorRef == nil ||
		*def.Elements[1].Box.Fill.ColorRef != "{homeColor}" || def.Elements[2].Group.Children[0].Text == nil ||
		def.Elements[5].Unknown == nil || def.Triggers[0].Animation.AnimationPreset == nil ||
		len(def.Triggers[1].Animation.Keyframes) != 2 || def.Inputs[1].Default != 720000.0 {
		t.Fatalf("not decoded into the typed shapes: %+v", def)
	}
	out, err := json.Marshal(def)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	_ = json.Unmarshal([]byte(in), &a)
	_ = json.Unmarshal(out, &b)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("round trip changed the definition:\n in: %s\nout: %s", in, out)
	}
}

// Building elements in Go needs no "type": the union writes it.
func TestSceneElementFillsInType(t *testing.T) {
	el := onair.SceneElement{Text: &onair.TextElement{X: 1, Y: 2, Width: 3, Height: 4, Text: "{line}", FontSize: 48,
		FontFamily: onair.Ptr("Inter")}}
	out, err := json.Marshal(el)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"fontFamily":"Inter","fontSize":48,"height":4,"text":"{line}","type":"text","width":3,"x":1,"y":2}`
	if string(out) != want {
		t.Fatalf("got %s, want %s", out, want)
	}
	if _, err := json.Marshal(onair.SceneElement{}); err == nil {
		t.Fatal("an element with no shape set must not marshal")
	}
}
