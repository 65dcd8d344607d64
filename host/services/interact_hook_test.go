package services_test

import (
	"context"
	"testing"

	"github.com/octet-kit/octet/host/services"
)

// TestInteractAnswersBeforeTheScript: RouterConfig.Interact answers confirmations and
// input inside an active parent before the script does, seeing the question and its
// parent; declining to answer (ok false) falls back to the script; outside an active
// parent it is never asked.
func TestInteractAnswersBeforeTheScript(t *testing.T) {
	sc := mustScript(t, "[[confirmations]]\nmatch = \"Deploy\"\nconfirmed = false\n[[inputs]]\nmatch = \"Name\"\nvalue = \"scripted\"\n")
	e := newEnv(t, sc)
	var asked []services.Question
	answer := "from the front end"
	e.interact = func(_ context.Context, q services.Question) (services.Answer, bool) {
		asked = append(asked, q)
		if q.Message == "Skip me" || q.Prompt == "Name, skipped" {
			return services.Answer{}, false
		}
		return services.Answer{Confirmed: true, Value: &answer}, true
	}
	var conf struct{ Confirmed bool }
	e.ok("confirmation/request", `{"message":"Deploy now?","title":"t","destructive":true,"parent_request_id":7}`, &conf)
	if !conf.Confirmed {
		t.Error("the front end's yes did not win over the script's no")
	}
	if len(asked) != 1 || asked[0].Kind != services.EventConfirmation || asked[0].Parent != "7" || asked[0].Extension != "demo" ||
		asked[0].Title != "t" || !asked[0].Destructive {
		t.Errorf("asked %+v", asked)
	}
	e.ok("confirmation/request", `{"message":"Skip me","parent_request_id":7}`, &conf)
	if conf.Confirmed {
		t.Error("a confirmation the front end passed on was confirmed without a script rule")
	}
	var in struct{ Value *string }
	e.ok("input/request", `{"parent_request_id":7,"prompt":"Name?","secret":false}`, &in)
	if in.Value == nil || *in.Value != answer {
		t.Errorf("input: %v, want the front end's answer", in.Value)
	}
	e.ok("input/request", `{"parent_request_id":7,"prompt":"Name, skipped","secret":false}`, &in)
	if in.Value == nil || *in.Value != "scripted" {
		t.Errorf("input the front end passed on: %v, want the script's answer", in.Value)
	}
	n := len(asked)
	e.ok("confirmation/request", `{"message":"Deploy now?","parent_request_id":99}`, &conf)
	if conf.Confirmed || len(asked) != n {
		t.Errorf("outside an active parent: confirmed %v, asked %d more", conf.Confirmed, len(asked)-n)
	}
}
