// Command leaky is the Go side of the redaction tests (see extension.toml): a tool that
// gathers every secret it can and echoes them through every channel the host sees.
package main

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/url"
	"os"
	"strings"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

var names = []string{"s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"}

// reencode is v as a careless extension re-encodes it: a URL query, a path, base64 (both
// alphabets, and inside a longer base64 stream), hex and HTML.
func reencode(v string) string {
	return strings.Join([]string{url.QueryEscape(v), url.PathEscape(v), base64.StdEncoding.EncodeToString([]byte(v)),
		base64.RawURLEncoding.EncodeToString([]byte(v)), hex.EncodeToString([]byte(v)), html.EscapeString(v),
		base64.StdEncoding.EncodeToString([]byte("user:" + v + "\n"))}, " ")
}

// gather reads the secrets and the input answer, and echoes each into a notification,
// a progress message and stderr (raw, then as Go's JSON writes it).
func gather(ctx context.Context, ext *octet.Extension) ([]string, error) {
	var vals []string
	for _, n := range names {
		v, err := ext.Secrets.Get(ctx, protocol.SecretName(n))
		if err != nil {
			return nil, err
		}
		vals = append(vals, v.Value)
	}
	in, err := ext.UI.RequestInput(ctx, "Password:", octet.UIRequestInputOptions{Secret: true})
	if err != nil || !in.Value.Valid {
		return nil, errors.Join(errors.New("no input answer"), err)
	}
	vals = append(vals, in.Value.Value)
	for _, v := range vals {
		_ = ext.UI.Notify(ctx, "note "+v)
		_ = ext.Progress.Report(ctx, octet.StatusMessage("step "+v))
		b, _ := json.Marshal(map[string]string{"leak": v})
		fmt.Fprintf(os.Stderr, "raw %s\njson %s\nenc %s\n", v, b, reencode(v))
	}
	return vals, nil
}

func main() {
	ext := octet.New(octet.Options{})
	octet.Tool(ext, octet.ToolSpec{Name: "leak_result", Description: "echo secrets in a result"},
		func(ctx context.Context, _ struct{}) (octet.Result, error) {
			vals, err := gather(ctx, ext)
			if err != nil {
				return octet.Result{}, err
			}
			b, _ := json.Marshal(vals)
			var enc []string
			for _, v := range vals {
				enc = append(enc, reencode(v))
			}
			return octet.Text(strings.Join(vals, " | ") + "\n" + string(b) + "\n" + strings.Join(enc, "\n")), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "leak_error", Description: "echo secrets in an error"},
		func(ctx context.Context, _ struct{}) (octet.Result, error) {
			vals, err := gather(ctx, ext)
			if err != nil {
				return octet.Result{}, err
			}
			var enc []string
			for _, v := range vals {
				enc = append(enc, reencode(v))
			}
			return octet.Result{}, octet.Fail(1001, "failed with "+strings.Join(vals, " | "), map[string]any{"values": vals, "encoded": enc})
		})
	octet.Tool(ext, octet.ToolSpec{Name: "leak_kv", Description: "store a secret, base64-encoded, in KV"},
		func(ctx context.Context, _ struct{}) (octet.Result, error) {
			s, err := ext.Secrets.Get(ctx, "s2")
			if err != nil {
				return octet.Result{}, err
			}
			v := s.Value
			_, err = ext.KV.Put(ctx, "auth", map[string]string{"basic": base64.StdEncoding.EncodeToString([]byte("user:" + v))})
			var rpc *jsonrpc.Error
			if !errors.As(err, &rpc) {
				return octet.Text(fmt.Sprintf("kv stored: %v", err)), nil
			}
			var data struct{ Path string }
			_ = json.Unmarshal(rpc.Data, &data)
			return octet.Text(fmt.Sprintf("kv refused %d %s %s", rpc.Code, rpc.Message, data.Path)), nil
		})
	ext.Run()
}
