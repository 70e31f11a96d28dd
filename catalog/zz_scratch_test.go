package catalog

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/snowluma/snowluma-mcp/internal/fault"
)

func TestZZScratch(t *testing.T) {
	cat, _ := Load()
	for _, c := range [][2]string{
		{"set_friend_add_request", `{"flag":"x","agree":false}`},
		{"set_friend_add_request", `{"flag":"x","zzz":false}`},
		{"set_group_ban", `{"group_id":1,"qq":2,"mute_time":60}`},
		{"set_group_card", `{"group_id":1,"user_id":2,"nick":"x"}`},
		{"send_group_msg", `{"chat_id":1,"text":"x","a1":1,"a2":2,"a3":3,"a4":4}`},
		{"set_group_kick", `{"group_id":1,"user_id":2,"blacklist":true}`},
		{"get_stranger_info", `{"user_id":2,"foo":true}`},
		{"upload_group_file", `{"group_id":1,"file":"x","zzz":"q"}`},
	} {
		a, _ := cat.Lookup(c[0])
		err := a.Unknown(json.RawMessage(c[1]))
		fmt.Printf("%s %s\n  %v\n  NEXT: %s\n", c[0], c[1], err, fault.NextOf(err))
	}
}
