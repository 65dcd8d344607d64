package ir

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/ordered"
)

// LimitsFile holds named constants rather than types.
const LimitsFile = "limits.schema.json"

// MethodsFile is the method registry.
const MethodsFile = "methods.json"

// keywords is the supported subset; anything else is refused so no emitter silently drops it.
var keywords = map[string]bool{
	"$schema": true, "$id": true, "title": true, "description": true, "$defs": true,
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"items": true, "minItems": true, "maxItems": true, "uniqueItems": true,
	"enum": true, "const": true, "default": true, "minLength": true, "maxLength": true,
	"x-minBytes": true, "x-maxBytes": true, "pattern": true, "minimum": true, "maximum": true,
	"oneOf": true, "$ref": true, "x-unit": true, "x-octet-errors": true, FeaturesKeyword: true,
}

type loader struct {
	m     *Model
	file  *File
	names map[string]string // name -> "file#pointer" where first declared
	// sdkSeen maps "service.operation" to the method that holds it.
	sdkSeen map[string]string
}

// Load reads every *.schema.json and methods.json in dir into a Model and lints it.
func Load(dir fs.FS) (*Model, error) {
	paths, err := fs.Glob(dir, "*.schema.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	m := &Model{byName: map[string]*Named{}}
	l := &loader{m: m, names: map[string]string{}}
	whole := sha256.New()
	docs := map[string]*ordered.Object{}
	// Pass 1: decode and register every name, so refs resolve in any order.
	for _, p := range paths {
		data, err := fs.ReadFile(dir, p)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(whole, "%s\x00%d\x00", p, len(data))
		whole.Write(data)
		v, err := ordered.Decode(data)
		if err != nil {
			return nil, fmt.Errorf("schema/%s: %w", p, err)
		}
		root, ok := v.(*ordered.Object)
		if !ok {
			return nil, fmt.Errorf("schema/%s: the document is not an object", p)
		}
		sum := sha256.Sum256(data)
		f := &File{Path: p, Stem: strings.TrimSuffix(p, ".schema.json"), Hash: hex.EncodeToString(sum[:])}
		f.Title, _ = str(root, "title")
		f.Description, _ = str(root, "description")
		m.Files = append(m.Files, f)
		docs[p] = root
		if p == LimitsFile {
			continue
		}
		if _, ok := root.Get("type"); ok {
			if f.Title == "" {
				return nil, fmt.Errorf("schema/%s: a file whose root is a type needs a title (its type name)", p)
			}
			if err := l.register(f, f.Title, ""); err != nil {
				return nil, err
			}
		}
		if defs, ok := obj(root, "$defs"); ok {
			for _, k := range defs.Keys {
				if err := l.register(f, k, "/$defs/"+k); err != nil {
					return nil, err
				}
			}
		}
	}
	// Pass 2: convert.
	for _, f := range m.Files {
		root := docs[f.Path]
		l.file = f
		if f.Path == LimitsFile {
			if err := l.limits(root); err != nil {
				return nil, err
			}
			continue
		}
		for _, k := range root.Keys {
			if !keywords[k] {
				return nil, fmt.Errorf("schema/%s: keyword %q is outside the supported subset", f.Path, k)
			}
		}
		if _, ok := root.Get("type"); ok {
			if err := l.define(f.Title, "", root); err != nil {
				return nil, err
			}
		}
		if defs, ok := obj(root, "$defs"); ok {
			for _, k := range defs.Keys {
				d, ok := defs.Vals[k].(*ordered.Object)
				if !ok {
					return nil, fmt.Errorf("schema/%s#/$defs/%s: not a schema object", f.Path, k)
				}
				if err := l.define(k, "/$defs/"+k, d); err != nil {
					return nil, err
				}
			}
		}
		if regs, ok := root.Get("x-octet-errors"); ok {
			if err := l.errors(regs); err != nil {
				return nil, err
			}
		}
		if table, ok := root.Get(FeaturesKeyword); ok {
			if err := l.features(table); err != nil {
				return nil, err
			}
		}
	}
	if data, err := fs.ReadFile(dir, MethodsFile); err == nil {
		fmt.Fprintf(whole, "%s\x00%d\x00", MethodsFile, len(data))
		whole.Write(data)
		if err := l.methods(data); err != nil {
			return nil, fmt.Errorf("schema/%s: %w", MethodsFile, err)
		}
	}
	m.Hash = hex.EncodeToString(whole.Sum(nil))
	if err := lintFeatureEnum(m); err != nil {
		return nil, err
	}
	if err := Lint(m); err != nil {
		return nil, err
	}
	return m, nil
}

func (l *loader) register(f *File, name, ptr string) error {
	if prev, dup := l.names[name]; dup {
		return fmt.Errorf("schema/%s#%s: type name %q is already declared at %s; names are global across files", f.Path, ptr, name, prev)
	}
	l.names[name] = f.Path + "#" + ptr
	n := &Named{Name: name, File: f, Pointer: ptr}
	l.m.byName[name] = n
	return nil
}

func (l *loader) define(name, ptr string, o *ordered.Object) error {
	n := l.m.byName[name]
	l.file.Types = append(l.file.Types, n)
	l.m.Types = append(l.m.Types, n)
	t, err := l.conv(o, name, ptr, true)
	if err != nil {
		return err
	}
	n.Type = t
	return nil
}

func (l *loader) where(ptr string) string { return "schema/" + l.file.Path + "#" + ptr }

// conv converts one schema node. owner names the enclosing named type, used to name hoisted
// inline objects; top says the node is the named type itself.
func (l *loader) conv(o *ordered.Object, owner, ptr string, top bool) (*Type, error) {
	for _, k := range o.Keys {
		if !keywords[k] || (k == "$defs" && ptr != "") || k == "x-octet-errors" || k == FeaturesKeyword {
			return nil, fmt.Errorf("%s: keyword %q is outside the supported subset", l.where(ptr), k)
		}
	}
	t := &Type{}
	t.Description, _ = str(o, "description")
	t.Unit, _ = str(o, "x-unit")
	if d, ok := o.Get("default"); ok {
		t.Default = plain(d)
	}
	if r, ok := str(o, "$ref"); ok {
		if len(o.Keys) > 2 || (len(o.Keys) == 2 && t.Description == "") {
			return nil, fmt.Errorf("%s: $ref may only be accompanied by description", l.where(ptr))
		}
		name, err := l.resolve(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", l.where(ptr), err)
		}
		t.Ref = name
		return t, nil
	}
	if v, ok := o.Get("oneOf"); ok {
		arr, ok := v.([]any)
		if !ok || len(arr) < 2 {
			return nil, fmt.Errorf("%s/oneOf: want an array of at least two schemas", l.where(ptr))
		}
		for i, e := range arr {
			eo, ok := e.(*ordered.Object)
			if !ok {
				return nil, fmt.Errorf("%s/oneOf/%d: not a schema object", l.where(ptr), i)
			}
			vt, err := l.conv(eo, owner, fmt.Sprintf("%s/oneOf/%d", ptr, i), false)
			if err != nil {
				return nil, err
			}
			if vt.Ref == "" {
				return nil, fmt.Errorf("%s/oneOf/%d: a oneOf variant must be a $ref to a named object type", l.where(ptr), i)
			}
			t.OneOf = append(t.OneOf, vt)
		}
		for _, k := range o.Keys {
			if k != "oneOf" && k != "description" {
				return nil, fmt.Errorf("%s: a oneOf node may only carry description, not %q", l.where(ptr), k)
			}
		}
		return t, nil
	}
	switch tv, _ := o.Get("type"); x := tv.(type) {
	case string:
		t.Kinds = []Kind{Kind(x)}
	case []any:
		for _, e := range x {
			s, _ := e.(string)
			t.Kinds = append(t.Kinds, Kind(s))
		}
	case nil:
		if _, ok := o.Get("const"); !ok {
			if _, ok := o.Get("enum"); !ok && len(o.Keys) > 1 {
				return nil, fmt.Errorf("%s: a schema with constraints needs a type", l.where(ptr))
			}
		}
	}
	for _, k := range t.Kinds {
		switch k {
		case Object, Array, String, Integer, Number, Boolean, Null:
		default:
			return nil, fmt.Errorf("%s/type: unknown type %q", l.where(ptr), k)
		}
	}
	var err error
	ints := []struct {
		kw  string
		dst **int64
	}{{"minLength", &t.MinLength}, {"maxLength", &t.MaxLength}, {"x-minBytes", &t.MinBytes}, {"x-maxBytes", &t.MaxBytes}, {"minItems", &t.MinItems}, {"maxItems", &t.MaxItems}}
	for _, p := range ints {
		if v, ok := o.Get(p.kw); ok {
			n, e := toInt(v)
			if e != nil {
				return nil, fmt.Errorf("%s/%s: %w", l.where(ptr), p.kw, e)
			}
			*p.dst = &n
		}
	}
	for _, p := range []struct {
		kw  string
		dst **float64
	}{{"minimum", &t.Minimum}, {"maximum", &t.Maximum}} {
		if v, ok := o.Get(p.kw); ok {
			n, ok := v.(json.Number)
			if !ok {
				return nil, fmt.Errorf("%s/%s: not a number", l.where(ptr), p.kw)
			}
			f, e := n.Float64()
			if e != nil {
				return nil, fmt.Errorf("%s/%s: %w", l.where(ptr), p.kw, e)
			}
			*p.dst = &f
		}
	}
	t.Pattern, _ = str(o, "pattern")
	if v, ok := o.Get("uniqueItems"); ok {
		t.Unique, _ = v.(bool)
	}
	if v, ok := o.Get("enum"); ok {
		arr, _ := v.([]any)
		for i, e := range arr {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("%s/enum/%d: only string enums are supported", l.where(ptr), i)
			}
			t.Enum = append(t.Enum, s)
		}
		if len(t.Enum) == 0 {
			return nil, fmt.Errorf("%s/enum: empty", l.where(ptr))
		}
	}
	if v, ok := o.Get("const"); ok {
		switch c := v.(type) {
		case string, bool:
			t.Const = c
		case json.Number:
			n, e := c.Int64()
			if e != nil {
				return nil, fmt.Errorf("%s/const: only string, boolean and integer constants are supported", l.where(ptr))
			}
			t.Const = n
		default:
			return nil, fmt.Errorf("%s/const: only string, boolean and integer constants are supported", l.where(ptr))
		}
	}
	if v, ok := o.Get("items"); ok {
		io, ok := v.(*ordered.Object)
		if !ok {
			return nil, fmt.Errorf("%s/items: not a schema object", l.where(ptr))
		}
		if t.Items, err = l.sub(io, owner+"Item", ptr+"/items"); err != nil {
			return nil, err
		}
	}
	if t.Has(Object) {
		ap, ok := o.Get("additionalProperties")
		b, isBool := ap.(bool)
		if !ok || !isBool {
			return nil, fmt.Errorf("%s: an object must say additionalProperties: false (closed) or true (open)", l.where(ptr))
		}
		t.Open = b
		props, hasProps := obj(o, "properties")
		if t.Open && hasProps && len(props.Keys) > 0 {
			return nil, fmt.Errorf("%s: an open object may not declare properties", l.where(ptr))
		}
		req := map[string]bool{}
		if rv, ok := o.Get("required"); ok {
			for _, r := range rv.([]any) {
				req[r.(string)] = true
			}
		}
		if hasProps {
			for _, k := range props.Keys {
				po, ok := props.Vals[k].(*ordered.Object)
				if !ok {
					return nil, fmt.Errorf("%s/properties/%s: not a schema object", l.where(ptr), k)
				}
				ft, err := l.sub(po, owner+camel(k), ptr+"/properties/"+k)
				if err != nil {
					return nil, err
				}
				t.Fields = append(t.Fields, &Field{Name: k, Type: ft, Required: req[k]})
				delete(req, k)
			}
		}
		for r := range req {
			return nil, fmt.Errorf("%s/required: %q is not a declared property", l.where(ptr), r)
		}
		if !top && !t.Open {
			return nil, fmt.Errorf("internal: closed object at %s not hoisted", ptr)
		}
	}
	return t, nil
}

// sub converts a nested node, hoisting an inline closed object into a named type.
func (l *loader) sub(o *ordered.Object, name, ptr string) (*Type, error) {
	tv, _ := o.Get("type")
	ap, _ := o.Get("additionalProperties")
	if tv == "object" && ap == false {
		if err := l.register(l.file, name, ptr); err != nil {
			return nil, err
		}
		n := l.m.byName[name]
		l.file.Types = append(l.file.Types, n)
		l.m.Types = append(l.m.Types, n)
		t, err := l.conv(o, name, ptr, true)
		if err != nil {
			return nil, err
		}
		n.Type = t
		return &Type{Ref: name, Description: t.Description}, nil
	}
	return l.conv(o, name, ptr, false)
}

func (l *loader) resolve(ref string) (string, error) {
	file, frag, _ := strings.Cut(ref, "#")
	if file == "" {
		file = l.file.Path
	}
	if frag == "" {
		for _, f := range l.m.Files {
			if f.Path == file && f.Title != "" {
				if n := l.m.byName[f.Title]; n != nil && n.Pointer == "" && n.File == f {
					return f.Title, nil
				}
			}
		}
		return "", fmt.Errorf("$ref %q: %s has no root type", ref, file)
	}
	name, ok := strings.CutPrefix(frag, "/$defs/")
	if !ok || strings.Contains(name, "/") {
		return "", fmt.Errorf("$ref %q: only refs to #/$defs/<Name> or to a file's root are supported", ref)
	}
	n := l.m.byName[name]
	if n == nil || n.File.Path != file {
		return "", fmt.Errorf("$ref %q: no definition %q in %s", ref, name, file)
	}
	return name, nil
}

func (l *loader) limits(root *ordered.Object) error {
	defs, _ := obj(root, "$defs")
	if defs == nil {
		return fmt.Errorf("schema/%s: no $defs", LimitsFile)
	}
	for _, k := range defs.Keys {
		d := defs.Vals[k].(*ordered.Object)
		c, ok := d.Get("const")
		n, isNum := c.(json.Number)
		if !ok || !isNum {
			return fmt.Errorf("schema/%s#/$defs/%s: a limit needs an integer const", LimitsFile, k)
		}
		v, err := n.Int64()
		if err != nil {
			return fmt.Errorf("schema/%s#/$defs/%s: %w", LimitsFile, k, err)
		}
		desc, _ := str(d, "description")
		unit, _ := str(d, "x-unit")
		l.m.Limits = append(l.m.Limits, Limit{Name: k, Value: v, Unit: unit, Description: desc})
	}
	return nil
}

func (l *loader) errors(v any) error {
	arr, ok := v.([]any)
	if !ok {
		return fmt.Errorf("schema/%s: x-octet-errors must be an array", l.file.Path)
	}
	for i, e := range arr {
		o, ok := e.(*ordered.Object)
		if !ok {
			return fmt.Errorf("schema/%s: x-octet-errors/%d is not an object", l.file.Path, i)
		}
		at := fmt.Sprintf("schema/%s#/x-octet-errors/%d", l.file.Path, i)
		var en ErrorEntry
		for _, k := range o.Keys {
			switch k {
			case "code", "name", "meaning", "category", "retryable", "retry_hint", "data", "messages":
			default:
				return fmt.Errorf("%s: unknown member %q", at, k)
			}
		}
		c, _ := o.Get("code")
		code, err := toInt(c)
		if err != nil {
			return fmt.Errorf("%s/code: %w", at, err)
		}
		en.Code = code
		en.Name, _ = str(o, "name")
		en.Meaning, _ = str(o, "meaning")
		en.Category, _ = str(o, "category")
		en.Retryable, _ = str(o, "retryable")
		en.RetryHint, _ = str(o, "retry_hint")
		if d, ok := o.Get("data"); ok && d != nil {
			do, ok := d.(*ordered.Object)
			r, _ := str(do, "$ref")
			if !ok || r == "" {
				return fmt.Errorf("%s/data: want null or {\"$ref\": ...}", at)
			}
			if en.Data, err = l.resolve(r); err != nil {
				return fmt.Errorf("%s/data: %w", at, err)
			}
		}
		if en.Name == "" || en.Meaning == "" || en.Category == "" {
			return fmt.Errorf("%s: name, meaning and category are required", at)
		}
		if msgs, ok := o.Get("messages"); ok {
			if en.Messages, err = l.errorMessages(at+"/messages", msgs); err != nil {
				return err
			}
		}
		switch en.Retryable {
		case "no", "maybe", "yes":
		default:
			return fmt.Errorf("%s/retryable: want no, maybe or yes, got %q", at, en.Retryable)
		}
		l.m.Errors = append(l.m.Errors, en)
	}
	return nil
}

// errorMessages reads a registry entry's message templates: [{name, template, meaning,
// data: {$ref}}], names unique across the whole registry.
func (l *loader) errorMessages(at string, v any) ([]ErrorMessage, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: must be an array", at)
	}
	var out []ErrorMessage
	for i, e := range arr {
		o, ok := e.(*ordered.Object)
		if !ok {
			return nil, fmt.Errorf("%s/%d: not an object", at, i)
		}
		for _, k := range o.Keys {
			switch k {
			case "name", "template", "meaning", "data":
			default:
				return nil, fmt.Errorf("%s/%d: unknown member %q", at, i, k)
			}
		}
		var m ErrorMessage
		m.Name, _ = str(o, "name")
		m.Template, _ = str(o, "template")
		m.Meaning, _ = str(o, "meaning")
		if m.Name == "" || m.Template == "" || m.Meaning == "" {
			return nil, fmt.Errorf("%s/%d: name, template and meaning are required", at, i)
		}
		for _, prev := range l.m.Errors {
			for _, pm := range prev.Messages {
				if pm.Name == m.Name {
					return nil, fmt.Errorf("%s/%d: message name %q is already used by code %d", at, i, m.Name, prev.Code)
				}
			}
		}
		if d, ok := obj(o, "data"); ok {
			r, _ := str(d, "$ref")
			var err error
			if m.Data, err = l.resolve(r); err != nil {
				return nil, fmt.Errorf("%s/%d/data: %w", at, i, err)
			}
		}
		out = append(out, m)
	}
	return out, nil
}

func str(o *ordered.Object, k string) (string, bool) {
	if o == nil {
		return "", false
	}
	v, ok := o.Vals[k].(string)
	return v, ok
}

func obj(o *ordered.Object, k string) (*ordered.Object, bool) {
	v, ok := o.Vals[k].(*ordered.Object)
	return v, ok
}

func toInt(v any) (int64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("want an integer, got %v", v)
	}
	return n.Int64()
}

// plain converts an ordered value to plain Go values (for defaults).
func plain(v any) any {
	switch x := v.(type) {
	case *ordered.Object:
		m := map[string]any{}
		for k, e := range x.Vals {
			m[k] = plain(e)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	}
	return v
}

// camel turns snake_case into CamelCase for hoisted type names.
func camel(s string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == '/' || r == '$' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}
