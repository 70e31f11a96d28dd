package fake

// What QQ's web pages and caches hold about a group, a file or the
// account, as the reads that pass them on answer it: the honor page
// (getHonorListWebAPI in packages/protocol/src/web/group-honor.ts, whose
// user_id is the page's uin as it came: a number, a numeric string or
// null), today's sign-ins (mapDaySignedList in group-signin.ts), the
// album pages (group-album.ts), the media cache (getImageInfo and
// getRecordInfo), flash transfers, contact cards and raw replies. SnowLuma
// hands each on as the page or cache wrote it, so the fake answers what a
// test put there for the key SnowLuma looks it up by, and fails as the
// web read does (retcode 100) when there is nothing.

import (
	"encoding/json"
	"strings"
	"sync"
	"time"
)

// pages are the answers put there, by action and key.
type pages struct {
	mu  sync.Mutex
	set map[string]map[string]json.RawMessage
}

// keyed are the web and cache reads the fake answers from pages, each
// with the param SnowLuma looks the answer up by ("" for an account-wide
// read). send_packet checks its params first (sendPacket) and answers the
// reply put there for its cmd, or an empty one.
var keyed = map[string]string{
	"get_group_honor_info":           "group_id",
	"get_group_signed_list":          "group_id",
	"get_group_info_ex":              "group_id",
	"get_group_detail_info":          "group_id",
	"get_group_album_list":           "group_id",
	"get_qun_album_list":             "group_id",
	"get_group_album_media_list":     "group_id",
	"click_inline_keyboard_button":   "group_id",
	"set_group_album_media_like":     "group_id",
	"cancel_group_album_media_like":  "group_id",
	"send_group_ark_share":           "group_id",
	"share_group_ex":                 "group_id",
	"share_peer":                     "user_id",
	"send_ark_share":                 "user_id",
	"get_image":                      "file",
	"get_record":                     "file",
	"get_fileset_info":               "fileset_id",
	"get_flash_file_list":            "fileset_id",
	"download_fileset":               "fileset_id",
	"send_packet":                    "cmd",
	"get_unidirectional_friend_list": "",
}

// Answer makes the fake answer action with data when it is asked for key
// (the value of the param keyed names, as written: "123" for a number;
// "" for an account-wide read, whose answer is shared by every test).
func (f *Fake) Answer(action, key string, data json.RawMessage) {
	if _, ok := keyed[action]; !ok {
		panic("fake: " + action + " is not answered from pages")
	}
	f.pages.mu.Lock()
	defer f.pages.mu.Unlock()
	if f.pages.set == nil {
		f.pages.set = map[string]map[string]json.RawMessage{}
	}
	if f.pages.set[action] == nil {
		f.pages.set[action] = map[string]json.RawMessage{}
	}
	f.pages.set[action][key] = data
}

// fromPages is the action that answers name from pages.
func fromPages(name string) action {
	return func(f *Fake, p params) (json.RawMessage, *failure) {
		key := ""
		if param := keyed[name]; param != "" {
			v, ok := p.raw(param)
			if !ok {
				return nil, badParam(param, "required")
			}
			key = strings.Trim(string(v), `"`)
		}
		if data, ok := f.answered(name, key); ok {
			return data, nil
		}
		return nil, actionFailed(name + " failed: nothing found")
	}
}

// answered is what Answer put there for action and key.
func (f *Fake) answered(action, key string) (json.RawMessage, bool) {
	f.pages.mu.Lock()
	defer f.pages.mu.Unlock()
	data, ok := f.pages.set[action][key]
	return data, ok
}

// getGroupShutList derives the muted members from the roster, as SnowLuma
// does (members whose shut_up time is still ahead), each with the
// nickname the roster lists.
func getGroupShutList(f *Fake, p params) (json.RawMessage, *failure) {
	group, _, fail := p.integer("group_id", true, uintID)
	if fail != nil {
		return nil, fail
	}
	type muted struct {
		UserID     int64  `json:"user_id"`
		Nickname   string `json:"nickname"`
		ShutUpTime int64  `json:"shut_up_time"`
	}
	f.forwards.mu.Lock()
	defer f.forwards.mu.Unlock()
	out := []muted{}
	for _, m := range f.rosters[group] {
		if m.ShutUntil > time.Now().Unix() {
			out = append(out, muted{UserID: m.UserID, Nickname: m.Nickname, ShutUpTime: m.ShutUntil})
		}
	}
	return mustJSON(out), nil
}
