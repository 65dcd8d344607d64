package strictjson_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

func TestRefuses(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":1,"a":2}`, `duplicate key "a"`},
		{`{"x":{"b":1,"b":1}}`, `path $.x`},
		{`"\ud83d"`, "lone UTF-16 surrogate"},
		{`"\ude00\ud83d"`, "lone UTF-16 surrogate"},
		{"\"\xff\"", "not valid UTF-8"},
		{`{} {}`, "unexpected data"},
		{`[1,]`, "unexpected character"},
		{`01`, "unexpected data"},
		{`NaN`, "unexpected character"},
		{`"a` + "\n" + `"`, "control character"},
		{strings.Repeat("[", 300) + strings.Repeat("]", 300), "nesting deeper"},
	} {
		_, err := strictjson.Parse([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%.40q): got %v, want an error containing %q", c.in, err, c.want)
		}
	}
}

func TestKeepsNumbersAndText(t *testing.T) {
	v, err := strictjson.Parse([]byte(`{"a":1.0,"b":9007199254740993,"c":"\ud83d\ude00é","d":[true,null]}`))
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	if m["a"] != json.Number("1.0") || m["b"] != json.Number("9007199254740993") {
		t.Errorf("numbers not kept as written: %v %v", m["a"], m["b"])
	}
	if m["c"] != "😀é" {
		t.Errorf("string: %q", m["c"])
	}
}
