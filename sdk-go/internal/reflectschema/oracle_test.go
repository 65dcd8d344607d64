package reflectschema

import (
	"bytes"
	"encoding/json"
	"net"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	invopop "github.com/invopop/jsonschema"
)

// The oracle is the library the SDK derived schemas with before (issue 17): kept
// for tests only, configured as the SDK configured it. Its document, after the
// $schema/$id the SDK removed, must equal Derive's as JSON with sorted keys: the
// bytes an extension announces in initialize.
func oracle(t *testing.T, typ reflect.Type) []byte {
	t.Helper()
	r := &invopop.Reflector{DoNotReference: true, Anonymous: true}
	raw, err := json.Marshal(r.ReflectFromType(typ))
	if err != nil {
		t.Fatalf("oracle marshal: %v", err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("oracle unmarshal: %v", err)
	}
	delete(doc, "$schema")
	delete(doc, "$id")
	out, _ := json.Marshal(doc)
	return out
}

type leaf struct {
	Name  string  `json:"name" jsonschema:"description=A name,minLength=1,maxLength=40,pattern=^[a-z]+$"`
	Count int     `json:"count,omitempty" jsonschema:"minimum=0,maximum=10,default=3"`
	Ratio float64 `json:"ratio" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1.5,multipleOf=0.25"`
}

type Embedded struct {
	Shared string `json:"shared"`
	Opt    *int   `json:"opt,omitempty"`
}

type inner struct {
	Deep bool `json:"deep" jsonschema:"default=true"`
}

type kinds struct {
	Embedded
	*inner
	Str      string                     `json:"str" jsonschema:"enum=a,enum=b,format=email,title=T"`
	Int8     int8                       `json:"i8" jsonschema:"enum=1,enum=2"`
	Uint     uint                       `json:"u"`
	U8       uint8                      `json:"u8"`
	F32      float32                    `json:"f32,omitempty"`
	Bool     bool                       `json:"b" jsonschema:"default=false"`
	Ptr      *string                    `json:"ptr,omitempty"`
	PPtr     **leaf                     `json:"pptr"`
	Slice    []leaf                     `json:"slice" jsonschema:"minItems=1,maxItems=3,uniqueItems=true"`
	Strs     []string                   `json:"strs" jsonschema:"enum=x,enum=y,pattern=^z,default=x,default=y"`
	Nums     []int                      `json:"nums" jsonschema:"minimum=1"`
	Arr      [3]int                     `json:"arr"`
	Bytes    []byte                     `json:"bytes"`
	Map      map[string]leaf            `json:"map"`
	IntMap   map[int]string             `json:"int_map"`
	AnyMap   map[string]any             `json:"any_map"`
	RawMap   map[string]json.RawMessage `json:"raw_map"`
	When     time.Time                  `json:"when"`
	WhenP    *time.Time                 `json:"when_p,omitempty"`
	Raw      json.RawMessage            `json:"raw,omitempty"`
	Any      any                        `json:"any"`
	AnyDesc  any                        `json:"any_desc" jsonschema:"description=anything"`
	URL      url.URL                    `json:"url"`
	IP       net.IP                     `json:"ip"`
	Nested   struct{ X int }            `json:"nested"`
	Empty    struct{}                   `json:"empty"`
	NoTag    string
	Skipped  string `json:"-"`
	SkipS    string `json:"skip_s" jsonschema:"-"`
	unexp    string
	Req      string   `json:"req,omitempty" jsonschema:"required"`
	Null     *string  `json:"null" jsonschema:"nullable"`
	Desc     string   `json:"desc" jsonschema_description:"from the other tag"`
	Extras   string   `json:"extras" jsonschema_extras:"x-a=1,x-b=true,x-c=p,x-c=q,minimum=4"`
	Escaped  string   `json:"escaped" jsonschema:"pattern=^a\\,b$"`
	TypeOver int      `json:"type_over" jsonschema:"type=string,maxLength=4"`
	OneOf    string   `json:"one_of" jsonschema:"oneof_type=string;integer"`
	AnyOfRef []string `json:"any_of_ref" jsonschema:"anyof_ref=#/a;#/b"`
	GroupA   string   `json:"group_a,omitempty" jsonschema:"oneof_required=A"`
	GroupB   string   `json:"group_b,omitempty" jsonschema:"oneof_required=B,anchor=bee"`
	Bad      int      `json:"bad" jsonschema:"minimum=x,maximum=2"`
	RO       string   `json:"ro" jsonschema:"readOnly=true,writeOnly=false,example=e"`
	NumEx    float64  `json:"num_ex" jsonschema:"example=1.5,default=2e3"`
	BoolArr  []bool   `json:"bool_arr" jsonschema:"default=true"`
	Inline   leaf     `json:"inline,inline"`
	Named    Embedded `json:"named_embedded"`
}

type sdkShaped struct {
	Name    string   `json:"name" jsonschema:"description=Who to greet"`
	Mode    string   `json:"mode,omitempty" jsonschema:"enum=inline,enum=path"`
	Size    int      `json:"size" jsonschema:"minimum=1,maximum=2048,description=Width and height in pixels"`
	Colours [3]uint8 `json:"colours"`
	Tags    []string `json:"tags,omitempty"`
}

type level string

type myInt int

type stringer interface{ String() string }

type edges struct {
	myInt
	Embedded  `json:"emb"`
	Level     level                 `json:"level" jsonschema:"enum=low,enum=high"`
	OnlyOpt   string                `json:",omitempty"`
	Grid      [][]string            `json:"grid" jsonschema:"minItems=1,enum=x"`
	Times     []time.Time           `json:"times"`
	ByInt8    map[int8]bool         `json:"by_int8"`
	ByUint    map[uint]string       `json:"by_uint"`
	Big       uint64                `json:"big" jsonschema:"maximum=100"`
	I64       int64                 `json:"i64" jsonschema:"exclusiveMinimum=-5"`
	Iface     stringer              `json:"iface"`
	PtrSlice  *[]*leaf              `json:"ptr_slice,omitempty" jsonschema:"nullable"`
	Raws      []json.RawMessage     `json:"raws" jsonschema:"format=x"`
	BlobArr   [2]byte               `json:"blob_arr"`
	NumStr    string                `json:"num_str" jsonschema:"minLength=x,maxLength=3,writeOnly=true"`
	EqPattern string                `json:"eq_pattern" jsonschema:"pattern=a=b"`
	EqNum     int                   `json:"eq_num" jsonschema:"minimum=1=2,maximum=3"`
	Types     any                   `json:"types" jsonschema:"anyof_type=string;;null,title=any"`
	ExtrasMin int                   `json:"extras_min" jsonschema_extras:"minimum=2,minimum=5,flag=false,flag=t"`
	NestedPtr *struct{ A *int }     `json:"nested_ptr"`
	MapOfArr  map[string][]float64  `json:"map_of_arr"`
	MapRaw    map[string]*time.Time `json:"map_raw"`
}

func TestDeriveEqualsTheOracle(t *testing.T) {
	for _, typ := range []reflect.Type{
		reflect.TypeFor[leaf](),
		reflect.TypeFor[*leaf](),
		reflect.TypeFor[kinds](),
		reflect.TypeFor[sdkShaped](),
		reflect.TypeFor[edges](),
		reflect.TypeFor[struct{}](),
		reflect.TypeFor[map[string]int](),
		reflect.TypeFor[[]kinds](),
	} {
		t.Run(typ.String(), func(t *testing.T) {
			doc, err := Derive(typ)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(doc)
			if want := oracle(t, typ); !bytes.Equal(got, want) {
				t.Errorf("derived\n%s\nthe oracle derives\n%s", got, want)
			}
			// The document holds what JSON decoding holds, so handing it on
			// without a round trip announces the same value.
			var back map[string]any
			_ = json.Unmarshal(got, &back)
			if !reflect.DeepEqual(back, doc) {
				t.Errorf("the document is not what its JSON decodes to:\n%#v\n%#v", doc, back)
			}
		})
	}
}

type node struct {
	Name     string `json:"name"`
	Children []node `json:"children"`
}

type viaPointer struct {
	Next *viaPointer `json:"next,omitempty"`
}

// The oracle recurses for ever on these (a stack overflow, not an error); the
// SDK names the type instead, so the tool author learns to set the schema.
func TestDeriveRefusesRecursiveTypes(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[node](), reflect.TypeFor[viaPointer]()} {
		_, err := Derive(typ)
		if err == nil || !strings.Contains(err.Error(), "refers to itself") {
			t.Errorf("%s: got %v, want a refusal naming the recursion", typ, err)
		}
	}
	// the same type twice side by side is no recursion
	type twice struct {
		A leaf `json:"a"`
		B leaf `json:"b"`
	}
	if _, err := Derive(reflect.TypeFor[twice]()); err != nil {
		t.Errorf("twice: %v", err)
	}
}

func TestDeriveNamesTheFieldOfAnUnsupportedKind(t *testing.T) {
	type withChan struct {
		Outer struct {
			C chan int `json:"c"`
		} `json:"outer"`
	}
	_, err := Derive(reflect.TypeFor[withChan]())
	if err == nil || !strings.Contains(err.Error(), "field Outer.C: type chan int") {
		t.Errorf("got %v", err)
	}
	type badNumber struct {
		N int `json:"n" jsonschema:"minimum=+1"`
	}
	_, err = Derive(reflect.TypeFor[badNumber]())
	if err == nil || !strings.Contains(err.Error(), "field N: jsonschema tag minimum=+1: not a JSON number") {
		t.Errorf("got %v", err)
	}
}
