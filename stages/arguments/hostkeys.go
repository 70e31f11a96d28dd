package arguments

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/snowluma/snowluma-mcp/pipeline"
)

// dropHostKeys returns args without the top-level host keys (pipeline.HostKeys), or args itself
// when it holds none (the common case costs one scan per key). Values are
// kept byte for byte; the object's members come out in key order, which a
// signed continuation does not see (it hashes canonical arguments).
func dropHostKeys(args json.RawMessage) json.RawMessage {
	found := false
	for _, k := range pipeline.HostKeys {
		if bytes.Contains(args, []byte(`"`+k.Name+`"`)) {
			found = true
			break
		}
	}
	if !found {
		return args
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(args, &members) != nil || members == nil {
		return args // not an object: validation says what is wrong
	}
	dropped := false
	for _, k := range pipeline.HostKeys {
		if _, ok := members[k.Name]; ok {
			delete(members, k.Name)
			dropped = true
		}
	}
	if !dropped {
		return args // the name appeared only inside a value
	}
	return object(members)
}

// object writes members as a JSON object in key order, each value as it
// came (json.Marshal would compact it and escape its HTML characters).
func object(members map[string]json.RawMessage) json.RawMessage {
	keys := make([]string, 0, len(members))
	for k := range members {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		_ = enc.Encode(k) // a string always encodes
		b.Truncate(b.Len() - 1)
		b.WriteByte(':')
		b.Write(members[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}
