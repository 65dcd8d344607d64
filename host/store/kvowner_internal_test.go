package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
)

// TestKVLegacyRowsMigrateToTheirExtension: a store at schema version 1 (what the code
// before KV identity wrote) with rows of "tool" (its namespace and "tool.cache"), of
// "toolbox" (a name "tool" is a prefix of) and of "other". Opening migrates it; the first
// identity of "tool" reads its rows back, a second "tool" from another root sees none and
// writes its own, "toolbox" and "other" keep theirs for their own first identity; after a
// reopen the claims stand.
func TestKVLegacyRowsMigrateToTheirExtension(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(migrations[0] + "PRAGMA user_version = 1;"); err != nil {
		t.Fatal(err)
	}
	for _, r := range [][2]string{{"tool", "a"}, {"tool.cache", "b"}, {"toolbox", "c"}, {"other", "d"}} {
		v := fmt.Sprintf("%q", r[0]+"/"+r[1])
		if _, err := db.Exec(`INSERT INTO kv (namespace, key, value, version) VALUES (?, ?, ?, ?)`, r[0], r[1], []byte(v), Digest([]byte(v))); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	st, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	get := func(owner, ns, key string) string {
		t.Helper()
		e, found, err := st.KVGetOf(ctx, owner, ns, key)
		if err != nil {
			t.Fatal(err)
		}
		if !found {
			return ""
		}
		return string(e.Value)
	}
	first, second := "tool@/ext/one", "tool@/ext/two"
	if h, err := st.KVClaim(ctx, "tool", first); err != nil || h != first {
		t.Fatalf("claim: %q %v", h, err)
	}
	if get(first, "tool", "a") != `"tool/a"` || get(first, "tool.cache", "b") != `"tool.cache/b"` {
		t.Fatal("the first identity of tool lost its rows")
	}
	if h, _ := st.KVClaim(ctx, "tool", second); h != first {
		t.Fatalf("second claim holder %q", h)
	}
	if get(second, "tool", "a") != "" || get(second, "toolbox", "c") != "" {
		t.Fatal("the second identity of tool reads rows it did not write")
	}
	if _, err := st.KVCommit(ctx, nil, []KVWrite{{Owner: second, Namespace: "tool", Key: "a", Value: []byte(`"mine"`)}}); err != nil {
		t.Fatal(err)
	}
	if get(first, "tool", "a") != `"tool/a"` || get(second, "tool", "a") != `"mine"` {
		t.Fatal("one identity's write reached the other")
	}
	if get("", "toolbox", "c") != `"toolbox/c"` || get("", "other", "d") != `"other/d"` {
		t.Fatal("claiming tool moved rows of other names")
	}
	st.Close()
	st, err = Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if h, _ := st.KVClaim(ctx, "tool", second); h != first {
		t.Fatalf("after reopen the claim is %q", h)
	}
	if h, _ := st.KVClaim(ctx, "toolbox", "toolbox@/ext/box"); h != "toolbox@/ext/box" || get("toolbox@/ext/box", "toolbox", "c") != `"toolbox/c"` {
		t.Fatal("toolbox did not get its rows")
	}
}
