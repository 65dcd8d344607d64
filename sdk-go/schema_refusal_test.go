package octet

import (
	"encoding/json"
	"regexp"
	"testing"
)

// Tool schemas are compiled when the tool is defined: a schema the validator
// cannot compile is refused then, naming the tool and the JSON pointer of the
// bad keyword, worded as the TypeScript and Python SDKs word it
// (sdk-typescript/test/schema.test.ts has the same list).

func schemaRefusal(t *testing.T, parameters, output map[string]any) string {
	t.Helper()
	_, err := DefineRawTool(ToolSpec{Name: "area", Description: "x", Parameters: parameters, OutputSchema: output}, nil)
	if err == nil {
		t.Fatalf("%v / %v: the schema was accepted", parameters, output)
	}
	return err.Error()
}

func doc(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSchemasRefusedAtDefinition(t *testing.T) {
	for _, c := range []struct{ params, output, want string }{
		{`{"properties":{"x":{"pattern":"("}}}`, ``, `^octet: tool "area": parameters schema /properties/x/pattern: invalid regular expression "\("`},
		{`{"properties":{"x":{"pattern":"(?=a)"}}}`, ``, `^octet: tool "area": parameters schema /properties/x/pattern: invalid regular expression .*; patterns must be portable across RE2, Python and ECMAScript$`},
		{`{"$ref":"https://example.com/other.json"}`, ``, `^octet: tool "area": parameters schema /\$ref: cannot resolve \$ref "https://example.com/other.json"`},
		{`{"$ref":"#/$defs/missing"}`, ``, `^octet: tool "area": parameters schema /\$ref: cannot resolve`},
		{`{"$defs":{"a":{"minLength":"3"}},"$ref":"#/$defs/a"}`, ``, `^octet: tool "area": parameters schema /\$defs/a/minLength: minLength must be a non-negative integer$`},
		{`{"properties":{"n":{"minimum":"3"}}}`, ``, `^octet: tool "area": parameters schema /properties/n/minimum: minimum must be a number$`},
		{`{"type":"float"}`, ``, `^octet: tool "area": parameters schema /type: type must be one of null, boolean, object, array, number, string, integer or a non-empty array of them$`},
		{`{"items":[{"type":"string"}]}`, ``, `^octet: tool "area": parameters schema /items: a schema must be an object or a boolean$`},
		{`{"required":"a"}`, ``, `^octet: tool "area": parameters schema /required: required must be an array of strings$`},
		{`{"multipleOf":0}`, ``, `^octet: tool "area": parameters schema /multipleOf: multipleOf must be greater than 0$`},
		{`{"patternProperties":{"a{":{}}}`, ``, `^octet: tool "area": parameters schema /patternProperties/a\{: invalid regular expression`},
		{`{"type":"object"}`, `{"properties":{"y":{"maxLength":-1}}}`, `^octet: tool "area": output_schema /properties/y/maxLength: maxLength must be a non-negative integer$`},
	} {
		var output map[string]any
		if c.output != "" {
			output = doc(t, c.output)
		}
		if got := schemaRefusal(t, doc(t, c.params), output); !regexp.MustCompile(c.want).MatchString(got) {
			t.Errorf("%s %s:\n got  %s\n want %s", c.params, c.output, got, c.want)
		}
	}
}

// TestOracleRefusalsAreRefused: schemas the oracle refuses (it checks every
// schema against the 2020-12 meta-schema) where a keyword's value has the wrong
// type or range, refused by the SDK's validator too, so no schema that used to
// be an author's error is now accepted with a different meaning.
func TestOracleRefusalsAreRefused(t *testing.T) {
	for _, s := range []string{
		`{"type":"strin"}`, `{"type":[]}`, `{"type":["string","string"]}`, `{"enum":5}`,
		`{"minLength":1.5}`, `{"minLength":-1}`, `{"maxItems":"2"}`, `{"minProperties":-1}`,
		`{"minContains":-1,"contains":{}}`, `{"maxContains":"1","contains":{}}`, `{"minimum":true}`,
		`{"exclusiveMaximum":"1"}`, `{"multipleOf":-1}`, `{"pattern":5}`, `{"required":[1]}`,
		`{"required":["a","a"]}`, `{"dependentRequired":{"a":"b"}}`, `{"uniqueItems":"yes"}`,
		`{"properties":5}`, `{"properties":{"a":5}}`, `{"patternProperties":{"a":5}}`,
		`{"additionalProperties":5}`, `{"items":5}`, `{"prefixItems":{}}`, `{"prefixItems":[]}`,
		`{"allOf":[]}`, `{"anyOf":{}}`, `{"oneOf":[5]}`, `{"not":5}`, `{"if":5,"then":{}}`,
		`{"then":5}`, `{"contains":5}`, `{"propertyNames":5}`, `{"dependentSchemas":5}`,
		`{"unevaluatedProperties":5}`, `{"unevaluatedItems":5}`, `{"$defs":5}`, `{"$defs":{"a":5}}`,
		`{"$id":5}`, `{"$anchor":"1a"}`, `{"$schema":5}`, `{"$ref":5}`,
	} {
		if _, err := oracleCompile([]byte(s), oracleOptions{}); err == nil {
			t.Errorf("%s: the oracle accepts it; the list is of the oracle's refusals", s)
		}
		if _, err := compileRaw([]byte(s), "schema"); err == nil {
			t.Errorf("%s: accepted", s)
		}
	}
}
