package content

import (
	"fmt"
	"testing"
)

// readOf256 is what a full event resource holds: 256 events, mostly group
// messages from many senders, some the account's own, some requests and
// notices.
func readOf256() [][]byte {
	frames := make([][]byte, 256)
	for i := range frames {
		switch i % 8 {
		case 0:
			frames[i] = []byte(ownSentMsg)
		case 1:
			frames[i] = []byte(banNotice)
		case 2:
			frames[i] = []byte(friendRequest)
		case 3:
			frames[i] = []byte(friendPrivateMsg)
		default:
			frames[i] = fmt.Appendf(nil, `{"time":1764664201,"self_id":10001,"post_type":"message","message_type":"group","sub_type":"normal","message_id":%d,"message_seq":%d,"group_id":123456789,"user_id":%d,"message":[{"type":"reply","data":{"id":"-1559550018"}},{"type":"at","data":{"qq":"10001"}},{"type":"text","data":{"text":" message number %d, with a few words in it"}}],"raw_message":"[CQ:reply,id=-1559550018][CQ:at,qq=10001] message number %d, with a few words in it","font":0,"sender":{"user_id":%d,"nickname":"member","card":"","role":"member","sex":"unknown","age":0},"anonymous":null}`,
				2137770485-i, 12345+i, 20000+i, i, i, 20000+i)
		}
	}
	return frames
}

// BenchmarkEventRead256 filters a full 256-event read, once marking and
// once in lockdown; one op is the whole read.
func BenchmarkEventRead256(b *testing.B) {
	frames := readOf256()
	size := 0
	for _, f := range frames {
		size += len(f)
	}
	for _, bc := range []struct {
		name   string
		filter *Filter
	}{{"marking", New(nil)}, {"lockdown", New([]int64{10002})}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, f := range frames {
					_ = bc.filter.Event(f)
				}
			}
		})
	}
}
