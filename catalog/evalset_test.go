package catalog

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The evaluation set in testdata/requests (issue 49) measures the search; these
// tests check only its labels, so a mislabelled line fails here instead of
// silently lowering (or raising) the search's figures. See its README.md.

const evalsetDir = "testdata/requests"

type evalsetRequest struct {
	Q      string   `json:"q"`
	Accept []string `json:"accept"`
	Read   bool     `json:"read"`
	Lang   string   `json:"lang"`
}

type evalsetName struct {
	Name   string   `json:"name"`
	Accept []string `json:"accept"`
}

type evalsetSlip struct {
	Action string          `json:"action"`
	Key    string          `json:"key"`
	Value  json.RawMessage `json:"value"`
	Want   string          `json:"want"`
}

// evalsetAction is what the labels are checked against, read from the
// catalog's own raw document so the check sees exactly what the server ships.
type evalsetAction struct {
	Name     string   `json:"name"`
	Aliases  []string `json:"aliases"`
	ReadOnly bool     `json:"readOnly"`
	Params   []struct {
		Name string `json:"name"`
	} `json:"params"`
}

type evalsetCatalog struct {
	actions map[string]evalsetAction
	aliases map[string]bool
}

func (c evalsetCatalog) hasParam(action, param string) bool {
	for _, p := range c.actions[action].Params {
		if p.Name == param {
			return true
		}
	}
	return false
}

func loadEvalsetCatalog(t *testing.T) evalsetCatalog {
	t.Helper()
	cat, err := Load()
	require.NoError(t, err)
	var doc struct {
		Actions []evalsetAction `json:"actions"`
	}
	require.NoError(t, json.Unmarshal(cat.Raw(), &doc))
	require.NotEmpty(t, doc.Actions)
	c := evalsetCatalog{actions: map[string]evalsetAction{}, aliases: map[string]bool{}}
	for _, a := range doc.Actions {
		c.actions[a.Name] = a
		for _, al := range a.Aliases {
			c.aliases[al] = true
		}
		_, ok := cat.Lookup(a.Name)
		require.True(t, ok, "Lookup(%q) on a name from Raw()", a.Name)
	}
	return c
}

// readEvalset decodes one JSON Lines file strictly: an unknown field or a
// line that is not one object fails, naming the file and line.
func readEvalset[T any](t *testing.T, file string) []T {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(evalsetDir, file))
	require.NoError(t, err)
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		require.NotEmpty(t, bytes.TrimSpace(line), "%s:%d is blank", file, n)
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		var v T
		require.NoError(t, dec.Decode(&v), "%s:%d", file, n)
		require.False(t, dec.More(), "%s:%d holds more than one object", file, n)
		out = append(out, v)
	}
	require.NoError(t, sc.Err())
	return out
}

func evalsetHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// evalsetSplit recomputes the README's split rule: within each stratum, sort
// by the SHA-256 of the item's key and alternate tune, held-out.
func evalsetSplit(strata map[string][]string) (tune, heldout map[string]bool) {
	tune, heldout = map[string]bool{}, map[string]bool{}
	for _, keys := range strata {
		sorted := append([]string(nil), keys...)
		sort.Slice(sorted, func(i, j int) bool { return evalsetHash(sorted[i]) < evalsetHash(sorted[j]) })
		for i, k := range sorted {
			if i%2 == 0 {
				tune[k] = true
			} else {
				heldout[k] = true
			}
		}
	}
	return tune, heldout
}

func evalsetHasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

func evalsetStratum(r evalsetRequest) string {
	mode := "write"
	if r.Read {
		mode = "read"
	}
	return r.Lang + "/" + mode
}

// evalsetRequestSets are the request sets, each split into its own halves
// (README.md): the first written for issue 49's first rounds, "b" to "z"
// "aa" to "az" and "ba" to "bm" (sixty-three more) written later the same way, each blind to the others and
// to the search.
var evalsetRequestSets = [][2]string{
	{"tune.jsonl", "heldout.jsonl"},
	{"tune-b.jsonl", "heldout-b.jsonl"},
	{"tune-c.jsonl", "heldout-c.jsonl"},
	{"tune-d.jsonl", "heldout-d.jsonl"},
	{"tune-e.jsonl", "heldout-e.jsonl"},
	{"tune-f.jsonl", "heldout-f.jsonl"},
	{"tune-g.jsonl", "heldout-g.jsonl"},
	{"tune-h.jsonl", "heldout-h.jsonl"},
	{"tune-i.jsonl", "heldout-i.jsonl"},
	{"tune-j.jsonl", "heldout-j.jsonl"},
	{"tune-k.jsonl", "heldout-k.jsonl"},
	{"tune-l.jsonl", "heldout-l.jsonl"},
	{"tune-n.jsonl", "heldout-n.jsonl"},
	{"tune-o.jsonl", "heldout-o.jsonl"},
	{"tune-p.jsonl", "heldout-p.jsonl"},
	{"tune-q.jsonl", "heldout-q.jsonl"},
	{"tune-s.jsonl", "heldout-s.jsonl"},
	{"tune-t.jsonl", "heldout-t.jsonl"},
	{"tune-u.jsonl", "heldout-u.jsonl"},
	{"tune-v.jsonl", "heldout-v.jsonl"},
	{"tune-m.jsonl", "heldout-m.jsonl"},
	{"tune-w.jsonl", "heldout-w.jsonl"},
	{"tune-x.jsonl", "heldout-x.jsonl"},
	{"tune-y.jsonl", "heldout-y.jsonl"},
	{"tune-z.jsonl", "heldout-z.jsonl"},
	{"tune-ab.jsonl", "heldout-ab.jsonl"},
	{"tune-aa.jsonl", "heldout-aa.jsonl"},
	{"tune-ac.jsonl", "heldout-ac.jsonl"},
	{"tune-ad.jsonl", "heldout-ad.jsonl"},
	{"tune-ae.jsonl", "heldout-ae.jsonl"},
	{"tune-af.jsonl", "heldout-af.jsonl"},
	{"tune-ag.jsonl", "heldout-ag.jsonl"},
	{"tune-ah.jsonl", "heldout-ah.jsonl"},
	{"tune-ai.jsonl", "heldout-ai.jsonl"},
	{"tune-aj.jsonl", "heldout-aj.jsonl"},
	{"tune-ak.jsonl", "heldout-ak.jsonl"},
	{"tune-al.jsonl", "heldout-al.jsonl"},
	{"tune-am.jsonl", "heldout-am.jsonl"},
	{"tune-an.jsonl", "heldout-an.jsonl"},
	{"tune-ao.jsonl", "heldout-ao.jsonl"},
	{"tune-ap.jsonl", "heldout-ap.jsonl"},
	{"tune-aq.jsonl", "heldout-aq.jsonl"},
	{"tune-ar.jsonl", "heldout-ar.jsonl"},
	{"tune-as.jsonl", "heldout-as.jsonl"},
	{"tune-at.jsonl", "heldout-at.jsonl"},
	{"tune-au.jsonl", "heldout-au.jsonl"},
	{"tune-av.jsonl", "heldout-av.jsonl"},
	{"tune-aw.jsonl", "heldout-aw.jsonl"},
	{"tune-ax.jsonl", "heldout-ax.jsonl"},
	{"tune-ay.jsonl", "heldout-ay.jsonl"},
	{"tune-az.jsonl", "heldout-az.jsonl"},
	{"tune-ba.jsonl", "heldout-ba.jsonl"},
	{"tune-bb.jsonl", "heldout-bb.jsonl"},
	{"tune-bc.jsonl", "heldout-bc.jsonl"},
	{"tune-bd.jsonl", "heldout-bd.jsonl"},
	{"tune-be.jsonl", "heldout-be.jsonl"},
	{"tune-bf.jsonl", "heldout-bf.jsonl"},
	{"tune-bg.jsonl", "heldout-bg.jsonl"},
	{"tune-bh.jsonl", "heldout-bh.jsonl"},
	{"tune-bi.jsonl", "heldout-bi.jsonl"},
	{"tune-bj.jsonl", "heldout-bj.jsonl"},
	{"tune-bk.jsonl", "heldout-bk.jsonl"},
	{"tune-bl.jsonl", "heldout-bl.jsonl"},
	{"tune-bm.jsonl", "heldout-bm.jsonl"},
}

// evalsetStressSets are the sets written to one purpose rather than as a
// sample of how people ask (README.md): sets r and rb to rp hold only reads, so
// they have no write strata and fewer requests.
var evalsetStressSets = [][2]string{
	{"tune-r.jsonl", "heldout-r.jsonl"},
	{"tune-rb.jsonl", "heldout-rb.jsonl"},
	{"tune-rc.jsonl", "heldout-rc.jsonl"},
	{"tune-rd.jsonl", "heldout-rd.jsonl"},
	{"tune-re.jsonl", "heldout-re.jsonl"},
	{"tune-rf.jsonl", "heldout-rf.jsonl"},
	{"tune-rg.jsonl", "heldout-rg.jsonl"},
	{"tune-rh.jsonl", "heldout-rh.jsonl"},
	{"tune-ri.jsonl", "heldout-ri.jsonl"},
	{"tune-rj.jsonl", "heldout-rj.jsonl"},
	{"tune-rk.jsonl", "heldout-rk.jsonl"},
	{"tune-rl.jsonl", "heldout-rl.jsonl"},
	{"tune-rm.jsonl", "heldout-rm.jsonl"},
	{"tune-rn.jsonl", "heldout-rn.jsonl"},
	{"tune-ro.jsonl", "heldout-ro.jsonl"},
	{"tune-rp.jsonl", "heldout-rp.jsonl"},
}

func TestEvalsetRequestsAreLabelledWithRealActions(t *testing.T) {
	cat := loadEvalsetCatalog(t)
	seen := map[string]string{} // across every set: no request is measured twice
	stress := map[string]bool{}
	for _, set := range evalsetStressSets {
		stress[set[0]], stress[set[1]] = true, true
	}
	for _, set := range append(append([][2]string(nil), evalsetRequestSets...), evalsetStressSets...) {
		for _, file := range set {
			reqs := readEvalset[evalsetRequest](t, file)
			t.Run(file, func(t *testing.T) {
				strataWanted := []string{"en/read", "en/write", "zh/read", "zh/write"}
				if stress[file] {
					strataWanted = []string{"en/read", "zh/read"}
					for _, r := range reqs {
						assert.True(t, r.Read, "%s: %q: a reads-only set holds a change", file, r.Q)
					}
					assert.GreaterOrEqual(t, len(reqs), 130, "requests in the half")
				} else {
					assert.GreaterOrEqual(t, len(reqs), 210, "requests in the half")
				}
				strata := map[string]int{}
				for i, r := range reqs {
					where := fmt.Sprintf("%s:%d %q", file, i+1, r.Q)
					require.NotEmpty(t, strings.TrimSpace(r.Q), where)
					if prev, dup := seen[r.Q]; dup {
						t.Errorf("%s repeats a request already in %s", where, prev)
					}
					seen[r.Q] = file
					assert.Contains(t, []string{"en", "zh"}, r.Lang, where)
					assert.Equal(t, r.Lang == "zh", evalsetHasHan(r.Q), "%s: lang %q disagrees with the text", where, r.Lang)
					require.NotEmpty(t, r.Accept, where)
					dupAccept := map[string]bool{}
					anyReadOnly := false
					for _, name := range r.Accept {
						a, ok := cat.actions[name]
						if !assert.True(t, ok, "%s accepts %q, which is no catalog action", where, name) {
							continue
						}
						assert.False(t, dupAccept[name], "%s lists %q twice", where, name)
						dupAccept[name] = true
						anyReadOnly = anyReadOnly || a.ReadOnly
					}
					// A read request must be servable by a read-only action, and a
					// change request by changes only; otherwise the label and the
					// catalog contradict each other.
					if r.Read {
						assert.True(t, anyReadOnly, "%s is a read but accepts no read-only action", where)
					} else {
						assert.False(t, anyReadOnly, "%s is a change but accepts a read-only action", where)
					}
					strata[evalsetStratum(r)]++
				}
				for _, s := range strataWanted {
					assert.Positive(t, strata[s], "stratum %s in %s", s, file)
				}
				t.Logf("%s: %d requests, strata %v", file, len(reqs), strata)
			})
		}
	}
}

func TestEvalsetRequestsFollowTheSplitRule(t *testing.T) {
	for _, set := range append(append([][2]string(nil), evalsetRequestSets...), evalsetStressSets...) {
		tuneReqs := readEvalset[evalsetRequest](t, set[0])
		heldReqs := readEvalset[evalsetRequest](t, set[1])
		strata := map[string][]string{}
		for _, r := range append(append([]evalsetRequest(nil), tuneReqs...), heldReqs...) {
			strata[evalsetStratum(r)] = append(strata[evalsetStratum(r)], r.Q)
		}
		wantTune, wantHeld := evalsetSplit(strata)
		for _, r := range tuneReqs {
			assert.True(t, wantTune[r.Q], "%q is in %s but the rule puts it in %s", r.Q, set[0], set[1])
		}
		for _, r := range heldReqs {
			assert.True(t, wantHeld[r.Q], "%q is in %s but the rule puts it in %s", r.Q, set[1], set[0])
		}
	}
}

// evalsetCaseSlip reports whether a name is a real action off only in case
// or surrounding blanks: the names' second stratum.
func evalsetCaseSlip(cat evalsetCatalog, name string) bool {
	_, ok := cat.actions[strings.ToLower(strings.TrimSpace(name))]
	return ok
}

func TestEvalsetInventedNamesIntendRealActions(t *testing.T) {
	cat := loadEvalsetCatalog(t)
	tune := readEvalset[evalsetName](t, "names-tune.jsonl")
	held := readEvalset[evalsetName](t, "names-heldout.jsonl")
	seen := map[string]string{}
	strata := map[string][]string{}
	for file, names := range map[string][]evalsetName{"names-tune.jsonl": tune, "names-heldout.jsonl": held} {
		assert.GreaterOrEqual(t, len(names), 32, "names in %s", file)
		caseSlips := 0
		for i, n := range names {
			where := fmt.Sprintf("%s:%d %q", file, i+1, n.Name)
			if prev, dup := seen[n.Name]; dup {
				t.Errorf("%s repeats a name already in %s", where, prev)
			}
			seen[n.Name] = file
			_, isReal := cat.actions[n.Name]
			assert.False(t, isReal, "%s is a real action name, not an invented one", where)
			assert.False(t, cat.aliases[n.Name], "%s is a real alias, not an invented name", where)
			require.NotEmpty(t, n.Accept, where)
			for _, a := range n.Accept {
				_, ok := cat.actions[a]
				assert.True(t, ok, "%s intends %q, which is no catalog action", where, a)
			}
			stratum := "invented"
			if evalsetCaseSlip(cat, n.Name) {
				stratum = "case"
				caseSlips++
				assert.Equal(t, []string{strings.ToLower(strings.TrimSpace(n.Name))}, n.Accept,
					"%s: a case or blank slip intends exactly its own action", where)
			}
			strata[stratum] = append(strata[stratum], n.Name)
		}
		assert.GreaterOrEqual(t, caseSlips, 4, "case/blank slips in %s", file)
		t.Logf("%s: %d names, %d of them case/blank slips", file, len(names), caseSlips)
	}
	wantTune, wantHeld := evalsetSplit(strata)
	for _, n := range tune {
		assert.True(t, wantTune[n.Name], "%q is in names-tune.jsonl but the rule puts it in the held-out half", n.Name)
	}
	for _, n := range held {
		assert.True(t, wantHeld[n.Name], "%q is in names-heldout.jsonl but the rule puts it in the tuning half", n.Name)
	}
}

func TestEvalsetSlipsWantARealParamAndSendAnUnknownKey(t *testing.T) {
	cat := loadEvalsetCatalog(t)
	tune := readEvalset[evalsetSlip](t, "slips-tune.jsonl")
	held := readEvalset[evalsetSlip](t, "slips-heldout.jsonl")
	seen := map[string]string{}
	var keys []string
	for file, slips := range map[string][]evalsetSlip{"slips-tune.jsonl": tune, "slips-heldout.jsonl": held} {
		assert.GreaterOrEqual(t, len(slips), 32, "slips in %s", file)
		for i, s := range slips {
			where := fmt.Sprintf("%s:%d %s.%s", file, i+1, s.Action, s.Key)
			key := s.Action + "\x00" + s.Key
			if prev, dup := seen[key]; dup {
				t.Errorf("%s repeats a slip already in %s", where, prev)
			}
			seen[key] = file
			keys = append(keys, key)
			if _, ok := cat.actions[s.Action]; !assert.True(t, ok, "%s: no such action", where) {
				continue
			}
			assert.True(t, cat.hasParam(s.Action, s.Want), "%s wants %q, which %s does not read", where, s.Want, s.Action)
			assert.False(t, cat.hasParam(s.Action, s.Key), "%s: %q is a real param of %s, not a slip", where, s.Key, s.Action)
			assert.NotEqual(t, s.Key, s.Want, where)
			assert.True(t, json.Valid(s.Value) && len(bytes.TrimSpace(s.Value)) > 0, "%s: value must be JSON", where)
		}
	}
	wantTune, wantHeld := evalsetSplit(map[string][]string{"slips": keys})
	for _, s := range tune {
		assert.True(t, wantTune[s.Action+"\x00"+s.Key], "%s.%s is in slips-tune.jsonl but the rule puts it in the held-out half", s.Action, s.Key)
	}
	for _, s := range held {
		assert.True(t, wantHeld[s.Action+"\x00"+s.Key], "%s.%s is in slips-heldout.jsonl but the rule puts it in the tuning half", s.Action, s.Key)
	}
}
