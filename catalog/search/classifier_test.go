package search

import (
	"context"
	"fmt"
	"testing"

	"github.com/snowluma/snowluma-mcp/catalog"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTheClassifierPutsFirstWhatPeopleMean: where the text matches two
// actions alike (unliking and deleting a post; the list of flash
// filesets and one fileset's facts), the action people who ask that way
// want goes first with the query classifier, and does not without it.
func TestTheClassifierPutsFirstWhatPeopleMean(t *testing.T) {
	t.Parallel()
	with, without := load(t), textAlone(t)
	for _, tc := range []struct{ query, want string }{
		{"unlike the qzone post tid 77aa that my friend 10002 made", "unlike_qzone"},
		{"闪传文件集全部列一下", "list_filesets"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			got := suggested(t, with, tc.query)
			assert.Equal(t, tc.want, got[0], "%v", got)
			got = suggested(t, without, tc.query)
			assert.NotEqual(t, tc.want, got[0], "the classifier, not the text, ranks it: %v", got)
		})
	}
}

// TestTheClassifierWeighsOnlyWhatTheTextMatches: an action no word of the
// request matches gains nothing, however the classifier rates it; among
// matched ones, the action whose requests held the request's term gains
// more; and a request of words no labelled request held changes no score.
func TestTheClassifierWeighsOnlyWhatTheTextMatches(t *testing.T) {
	t.Parallel()
	c := newClassifier([]*catalog.Action{{Name: "a"}, {Name: "b"}}, map[string]map[string]int{"a": {"mute": 3}, "b": {"kick": 1}})
	scores := []float64{0, 1}
	c.add([]string{"mute"}, scores)
	assert.Equal(t, 0.0, scores[0], "a is not matched")
	scores = []float64{1, 1}
	c.add([]string{"mute"}, scores)
	assert.Greater(t, scores[0], scores[1], "a's requests said mute")
	assert.InDelta(t, 2+classifierWeight, scores[0]+scores[1], 1e-9, "the weight is shared out as a probability")
	scores = []float64{1, 1}
	c.add([]string{"unheard"}, scores)
	assert.Equal(t, []float64{1, 1}, scores)
}

// TestTheClassifierWeighsTheShareOfRequests: the classifier asks what
// share of an action's requests held each term, and a term the request
// lacks counts against an action all of whose requests hold it. Ten
// requests for a group message say send, group and three words of their
// own; three for a poke say send, group and poke. "send … to group"
// holds no poke: the message's, though its words are a smaller part of
// all that was written for it.
func TestTheClassifierWeighsTheShareOfRequests(t *testing.T) {
	t.Parallel()
	message := map[string]int{requestsKey: 10, "send": 10, "group": 10}
	for i := range 30 {
		message[fmt.Sprint("w", i)] = 1
	}
	c := newClassifier([]*catalog.Action{{Name: "message"}, {Name: "poke"}}, map[string]map[string]int{"message": message, "poke": {requestsKey: 3, "send": 3, "group": 3, "poke": 3}})
	p := c.posterior([]string{"send", "group"}, 1)
	assert.Greater(t, p[0], p[1], "send to group: %v", p)
	p = c.posterior([]string{"send", "group", "poke"}, 1)
	assert.Greater(t, p[1], p[0], "send a poke to group: %v", p)
}

// TestTheClassifierSpeaksWhereTheCuesLeaveADoubt: a read that a cue word
// calls a change the read prior only doubts (a share card made but not
// sent), or that no cue word speaks for and the prior leans against
// (album names before an upload), reads once the query classifier finds
// it likelier to read, and not without the classifier. A bare command
// whose words the questions about it share (发语音) stays a send.
func TestTheClassifierSpeaksWhereTheCuesLeaveADoubt(t *testing.T) {
	t.Parallel()
	with, without := load(t), textAlone(t)
	assert.Equal(t, intentCreate, with.parsed().intent("发语音"))
	for _, query := range []string{
		"generate the group share card for 5566 only, no sending",
		"group 4455 album names, gonna upload a few photos",
	} {
		t.Run(query, func(t *testing.T) {
			require.NotEqual(t, intentRead, intentOf(query), "the cue lists and the prior do not read it")
			assert.Equal(t, intentRead, with.parsed().intent(query))
			assert.NotEqual(t, intentRead, without.parsed().intent(query))
			got := with.Suggest(context.Background(), query, catalog.Filter{})
			require.NotEmpty(t, got)
			assert.True(t, got[0].ReadOnly, "%v", names(got))
		})
	}
}

// TestASendTheModelsOverruleGetsNoSegmentHint: a request whose cue word
// asks to send a segment, but which the trained models read as a read
// (whether images may be sent; a voice file converted for keeping), gets
// no hint to send one, and a read first; without the classifier it got
// the hint.
func TestASendTheModelsOverruleGetsNoSegmentHint(t *testing.T) {
	t.Parallel()
	with, without := load(t), textAlone(t)
	for _, query := range []string{
		"image sending allowed or nah",
		"语音 7A8B9C.amr 转成mp3给我，不发群里",
	} {
		t.Run(query, func(t *testing.T) {
			_, hinted := with.SegmentHint(context.Background(), query)
			assert.False(t, hinted)
			got := with.Suggest(context.Background(), query, catalog.Filter{})
			require.NotEmpty(t, got)
			assert.True(t, got[0].ReadOnly, "%v", names(got))
			_, hinted = without.SegmentHint(context.Background(), query)
			assert.True(t, hinted, "the cue alone asks to send one")
		})
	}
}

// textAlone is an index like the catalog's, its learned field kept,
// without the query classifier: what the ranking was before it came.
func textAlone(t *testing.T) *Index {
	x := &Index{cat: load(t).cat}
	x.once.Do(func() {
		x.build()
		x.votes = newClassifier(x.all, nil)
	})
	return x
}
