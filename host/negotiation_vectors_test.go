package host

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/process"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// hostVector is one schema/vectors/negotiation/*.json as the host reads it: offer vectors fix
// what the host offers under its conditions, check vectors how it judges an answer, and
// answer vectors (the SDKs' expected answers) must be accepted with the same features.
type hostVector struct {
	Kind       string `json:"kind"`
	APIVersion string `json:"api_version"`
	Host       struct {
		Services   bool                     `json:"services"`
		Conditions []protocol.HostCondition `json:"conditions"`
	} `json:"host"`
	Offer struct {
		APIVersion string                 `json:"api_version"`
		Protocol   protocol.ProtocolOffer `json:"protocol"`
	} `json:"offer"`
	Manifest json.RawMessage `json:"manifest"`
	Answer   json.RawMessage `json:"answer"`
	Expect   struct {
		RequiredFeatures []string        `json:"required_features"`
		OptionalFeatures []string        `json:"optional_features"`
		Refused          string          `json:"refused"`
		Features         []string        `json:"features"`
		Concurrency      int             `json:"concurrency"`
		Protocol         json.RawMessage `json:"protocol"`
		Error            json.RawMessage `json:"error"`
	} `json:"expect"`
}

func vectorManifest(t *testing.T, raw json.RawMessage) *manifest.Manifest {
	t.Helper()
	var m manifest.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &m.JSON); err != nil {
		t.Fatal(err)
	}
	return &m
}

func TestNegotiationVectors(t *testing.T) {
	files, _ := filepath.Glob("../schema/vectors/negotiation/*.json")
	kinds := map[string]int{}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var v hostVector
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Fatal(err)
			}
			kinds[v.Kind]++
			m := vectorManifest(t, v.Manifest)
			switch v.Kind {
			case "offer":
				o := &Options{ApprovalIssuance: slices.Contains(v.Host.Conditions, protocol.ConditionApprovalIssuance),
					SecretBroker: slices.Contains(v.Host.Conditions, protocol.ConditionSecretBroker)}
				if v.Host.Services {
					o.Services = noServices{}
				}
				if slices.Contains(v.Host.Conditions, protocol.ConditionOwnerBound) {
					o.Session.SessionID = "session-vector"
				}
				m.APIVersion = v.APIVersion
				req, opt := offeredFeatures(m, o)
				if !slices.Equal(req, v.Expect.RequiredFeatures) || !slices.Equal(opt, v.Expect.OptionalFeatures) {
					t.Fatalf("offered %v + %v, want %v + %v", req, opt, v.Expect.RequiredFeatures, v.Expect.OptionalFeatures)
				}
			case "check", "answer":
				if v.Kind == "answer" && v.Expect.Protocol == nil {
					return // a refusal by the SDK: nothing reaches the host's check
				}
				answer := v.Answer
				if v.Kind == "answer" {
					answer = v.Expect.Protocol
				}
				res, _ := json.Marshal(map[string]any{"api_version": v.Offer.APIVersion, "name": m.Name, "version": m.Version,
					"tools": []any{}, "commands": []any{}, "protocol": answer})
				offer := InitializeOffer{APIVersion: v.Offer.APIVersion, RequiredFeatures: v.Offer.Protocol.RequiredFeatures,
					OptionalFeatures: v.Offer.Protocol.OptionalFeatures, MaxConcurrency: int(v.Offer.Protocol.Limits.MaxConcurrentRequests)}
				n, err := CheckInitialize(res, m, offer)
				if v.Expect.Refused != "" {
					var se *process.StartError
					if !errors.As(err, &se) || se.Message != v.Expect.Refused {
						t.Fatalf("check = %v, want the refusal %q", err, v.Expect.Refused)
					}
					return
				}
				if err != nil {
					t.Fatalf("refused %v", err)
				}
				want := v.Expect.Features
				if v.Kind == "answer" {
					var p struct{ Features []string }
					_ = json.Unmarshal(answer, &p)
					want = slices.Sorted(slices.Values(p.Features))
				}
				if !reflect.DeepEqual(n.Features, want) && !(len(n.Features) == 0 && len(want) == 0) {
					t.Fatalf("features %v, want %v", n.Features, want)
				}
				if v.Expect.Concurrency != 0 && n.Concurrency != v.Expect.Concurrency {
					t.Fatalf("concurrency %d, want %d", n.Concurrency, v.Expect.Concurrency)
				}
			default:
				t.Fatalf("unknown kind %q", v.Kind)
			}
		})
	}
	if kinds["offer"] < 3 || kinds["check"] < 2 || kinds["answer"] < 10 {
		t.Fatalf("negotiation vectors missing: %v", kinds)
	}
}
