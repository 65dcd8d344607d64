package octet

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// infoFromDoc and manifestFromDoc read what json.Unmarshal reads, for params whose
// every field (found by reflection, so a field the schema adds is covered) is set,
// for the zero value's encoding, with explicit nulls, reordered members and
// whitespace; a manifest key written with escapes falls back to encoding/json.
func TestInitializeFromDocEqualsUnmarshal(t *testing.T) {
	var full InitializeInfo
	fill(reflect.ValueOf(&full).Elem(), "x")
	var view manifestView
	fill(reflect.ValueOf(&view).Elem(), "m")
	manifest, _ := json.Marshal(view)
	// Members the SDK does not read, before and after the ones it does.
	manifest = append([]byte(`{"certify":{"tools":[{"name":"a","args":{"k":[1,{"z":"}"}]}}]},`), manifest[1:]...)
	manifest = append(manifest[:len(manifest)-1], `,"runtime":{"x":"]"}}`...)
	full.Manifest = manifest
	fullJSON, _ := json.Marshal(full)
	zeroJSON, _ := json.Marshal(InitializeInfo{Manifest: json.RawMessage(`{}`)})
	cases := map[string][]byte{
		"full": fullJSON,
		"zero": zeroJSON,
		"nulls": []byte(`{"api_version":null,"session":null,"protocol":{"version":"0.4","required_features":null,"limits":{"max_concurrent_requests":3,"max_message_bytes":null}},` +
			`"manifest":{"name":"n","contributes":{"tools":null,"context":null,"hooks":[]}}}`),
		"spaced": []byte(" {\n \"workspace\" : {\"root\": \"/w\", \"trusted\": false} ,\n\t\"manifest\"\t:\n  {\"name\" : \"n\" , \"contributes\" : {}}  ,\"api_version\":\"0.4\" }\n"),
		"last":   []byte(`{"extension":{"name":"e","version":"1","dir":"d","manifest_path":"p","source":"s"},"manifest":{"version":"2"}}`),
	}
	for name, params := range cases {
		doc, err := strictjson.Parse(params)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		top := doc.(map[string]any)
		got, ok := infoFromDoc(top, params)
		if !ok {
			t.Fatalf("%s: infoFromDoc declined", name)
		}
		var want InitializeInfo
		if err := json.Unmarshal(params, &want); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: info\n from doc %+v\n json     %+v", name, got, want)
		}
		m, _ := top["manifest"].(map[string]any)
		gotView := manifestFromDoc(m)
		var wantView manifestView
		if err := json.Unmarshal(want.Manifest, &wantView); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(gotView, wantView) {
			t.Errorf("%s: manifest\n from doc %+v\n json     %+v", name, gotView, wantView)
		}
	}
	// The full case set every field: nothing was left at its zero value unnoticed.
	if zero := zeroField(reflect.ValueOf(full), "InitializeInfo"); zero != "" {
		t.Errorf("fill left %s zero", zero)
	}
	escaped := []byte(`{"api_version":"0.4","\u006danifest":{"name":"n"}}`)
	doc, _ := strictjson.Parse(escaped)
	if _, ok := infoFromDoc(doc.(map[string]any), escaped); ok {
		t.Error("infoFromDoc read a manifest key written with escapes instead of declining")
	}
}

// fill sets every field reachable from v to a non-zero value.
func fill(v reflect.Value, tag string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(tag + "<é>")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(len(tag)) + 40)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), tag)
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			v.SetBytes([]byte(`{}`))
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), tag+"0")
		fill(v.Index(1), tag+"1")
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			fill(v.Field(i), tag+"."+strings.ToLower(v.Type().Field(i).Name))
		}
	}
}

// zeroField names a field under v that is its type's zero value ("" when none is).
func zeroField(v reflect.Value, path string) string {
	if v.IsZero() {
		return path
	}
	switch v.Kind() {
	case reflect.Pointer:
		return zeroField(v.Elem(), path)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if z := zeroField(v.Field(i), path+"."+v.Type().Field(i).Name); z != "" {
				return z
			}
		}
	}
	return ""
}

// manifestBytes returns the member's bytes exactly as json.RawMessage holds them.
func TestManifestBytes(t *testing.T) {
	params := []byte(`{"a":"manifest","b":[{"manifest":1}],"manifest" : {"x":[1, 2]} , "c":{}}`)
	got, ok := manifestBytes(params)
	var want struct {
		Manifest json.RawMessage `json:"manifest"`
	}
	_ = json.Unmarshal(params, &want)
	if !ok || !bytes.Equal(got, want.Manifest) {
		t.Errorf("manifestBytes = %q, %v; json.RawMessage %q", got, ok, want.Manifest)
	}
	if &got[0] == &params[bytes.Index(params, []byte(`{"x"`))] {
		t.Error("manifestBytes aliases params; the reader reuses that buffer")
	}
	if _, ok := manifestBytes([]byte(`{"a":1}`)); ok {
		t.Error("manifestBytes found a manifest in an object without one")
	}
}

// headFromDoc answers only when encoding/json would decode the same two strings,
// and declines (the caller decodes) on every input where key matching or a type
// would make encoding/json differ or fail.
func TestHeadFromDocAgreesWithUnmarshal(t *testing.T) {
	cases := []struct {
		params string
		answer bool // headFromDoc is expected to answer rather than decline
	}{
		{`{"api_version":"0.4","manifest":{"api_version":"0.4","name":"x"}}`, true},
		{`{"api_version":"0.2","manifest":{"name":"x"}}`, true},
		{`{"api_version":"0.1"}`, true},
		{`{"api_version":"0.4","manifest":{"api_version":"0.2"},"x":[{"api_version":1}]}`, true},
		{`{"api_version":""}`, false},
		{`{"api_version":null}`, false},
		{`{"api_version":4}`, false},
		{`{}`, false},
		{`[]`, false},
		{`"0.4"`, false},
		{`null`, false},
		{`{"api_version":"0.4","API_VERSION":"0.2"}`, false},
		{`{"Api_Version":"0.4"}`, false},
		{`{"api_version":"0.4","manifest":{"api_version":"0.4","Api_version":"0.2"}}`, false},
		{`{"api_version":"0.4","Manifest":{"api_version":"0.2"}}`, false},
		{`{"api_version":"0.4","manifeſt":{"api_version":"0.2"}}`, false},
		{`{"api_version":"0.4","manifest":{"api_version":2}}`, false},
		{`{"api_version":"0.4","manifest":{"api_version":null}}`, false},
		{`{"api_version":"0.4","manifest":"0.4"}`, false},
		{`{"api_version":"0.4","manifest":null}`, false},
	}
	for _, c := range cases {
		doc, err := strictjson.Parse([]byte(c.params))
		if err != nil {
			t.Fatalf("%s: %v", c.params, err)
		}
		api, manifestAPI, ok := headFromDoc(doc)
		if ok != c.answer {
			t.Errorf("%s: headFromDoc answered %v, want %v", c.params, ok, c.answer)
		}
		if !ok {
			continue
		}
		var head struct {
			APIVersion string `json:"api_version"`
			Manifest   struct {
				APIVersion string `json:"api_version"`
			} `json:"manifest"`
		}
		if err := json.Unmarshal([]byte(c.params), &head); err != nil || head.APIVersion != api || head.Manifest.APIVersion != manifestAPI {
			t.Errorf("%s: headFromDoc (%q, %q), encoding/json (%q, %q, %v)", c.params, api, manifestAPI, head.APIVersion, head.Manifest.APIVersion, err)
		}
	}
}
