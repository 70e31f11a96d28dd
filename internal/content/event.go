package content

import "encoding/json"

// Event marks, and in lockdown withholds, the third-party content of one
// event frame. The account is the frame's own self_id, which the hub has
// already checked against the subscription's. A frame that is not an
// event object is withheld whole in lockdown (the hub never passes one).
func (f *Filter) Event(frame []byte) []byte {
	s := screen{f: f, account: &account{}}
	if !json.Valid(frame) {
		out, _ := s.unreadable(frame)
		return out
	}
	ms, ok := members(frame)
	if !ok {
		out, _ := s.unreadable(frame)
		return out
	}
	for _, m := range ms {
		if string(m.key) == "self_id" {
			s.account.id, _ = qqID(frame[m.start:m.end])
		}
	}
	out, _ := s.itemOf(frame, ms, eventShape(frame, ms), 0)
	return out
}
