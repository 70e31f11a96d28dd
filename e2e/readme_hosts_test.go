package e2e

// The README's host configuration (issue 29 item 3): every JSON and TOML
// snippet in Install and "Configure your MCP host" parses, has the shape
// its host reads (an mcpServers wrapper, or for claude mcp add-json the
// inner server object; Codex's [mcp_servers.NAME] table), and sets only
// variables the server reads; so does every -e / --env of the claude,
// gemini and codex command lines there. A renamed variable, or a snippet a
// host cannot parse, fails here, in either README.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A fence is one fenced code block: the ## section it is in, the line it
// opens on, its language and its text.
type fence struct {
	section    string
	line       int
	lang, text string
}

// readmeFences returns every fenced code block of one README, in order.
func readmeFences(t *testing.T, file string) []fence {
	t.Helper()
	var out []fence
	section, open := "", (*fence)(nil)
	for i, line := range readmeLines(t, file) {
		switch {
		case open != nil && line == "```":
			out, open = append(out, *open), nil
		case open != nil:
			open.text += line + "\n"
		case strings.HasPrefix(line, "## "):
			section = line
		case strings.HasPrefix(line, "```"):
			open = &fence{section: section, line: i, lang: strings.TrimPrefix(line, "```")}
		}
	}
	require.Nil(t, open, "%s: a code block is left open", file)
	return out
}

// checkServer checks one server entry as a host reads it: a command, and
// only the keys hosts know; every env key a variable the server reads.
func checkServer(t *testing.T, where string, server map[string]any, read map[string]bool) {
	t.Helper()
	command, _ := server["command"].(string)
	assert.NotEmpty(t, command, "%s: a command", where)
	for key := range server {
		assert.Contains(t, []string{"command", "args", "env", "type"}, key, "%s: a key the hosts read", where)
	}
	if args, ok := server["args"]; ok {
		list, ok := args.([]any)
		require.True(t, ok, "%s: args is a list", where)
		for _, a := range list {
			assert.IsType(t, "", a, "%s: every argument is a string", where)
		}
	}
	if env, ok := server["env"]; ok {
		vars, ok := env.(map[string]any)
		require.True(t, ok, "%s: env is an object", where)
		require.NotEmpty(t, vars, "%s: an env block sets something", where)
		for k, v := range vars {
			assert.True(t, read[k], "%s: %s is a variable the server reads", where, k)
			assert.IsType(t, "", v, "%s: %s is a string", where, k)
		}
	}
}

// envFlag is one -e or --env setting of a host's command line.
var envFlag = regexp.MustCompile(`(?:^|\s)(?:-e|--env)\s+"?([A-Za-z_][A-Za-z0-9_]*)=`)

// addJSON is claude mcp add-json's JSON argument.
var addJSON = regexp.MustCompile(`claude mcp add-json .*'(\{.*\})'`)

func TestReadmeHostSnippetsSetOnlyVariablesTheServerReads(t *testing.T) {
	t.Parallel()
	read := serverVariables(t)
	for _, r := range readmes {
		t.Run(r.file, func(t *testing.T) { checkHostSnippets(t, r, read) })
	}
}

// checkHostSnippets checks one README's host snippets.
func checkHostSnippets(t *testing.T, r readme, read map[string]bool) {
	counts := map[string]int{}
	for i, f := range readmeFences(t, r.file) {
		if f.section != r.install && f.section != r.hosts {
			continue
		}
		where := fmt.Sprintf("%s block %d (%s)", f.lang, i+1, strings.SplitN(f.text, "\n", 2)[0])
		switch f.lang {
		case "json":
			var doc map[string]any
			require.NoError(t, json.Unmarshal([]byte(f.text), &doc), "%s parses", where)
			servers, ok := doc["mcpServers"].(map[string]any)
			require.True(t, ok, "%s: the mcpServers shape", where)
			require.Len(t, doc, 1, "%s: nothing beside mcpServers", where)
			for name, s := range servers {
				server, ok := s.(map[string]any)
				require.True(t, ok, "%s: %s is an object", where, name)
				checkServer(t, where, server, read)
				counts["json"]++
			}
		case "toml":
			var doc map[string]any
			_, err := toml.Decode(f.text, &doc)
			require.NoError(t, err, "%s parses", where)
			servers, ok := doc["mcp_servers"].(map[string]any)
			require.True(t, ok, "%s: the [mcp_servers.NAME] shape", where)
			require.Len(t, doc, 1, "%s: nothing beside mcp_servers", where)
			for name, s := range servers {
				server, ok := s.(map[string]any)
				require.True(t, ok, "%s: %s is a table", where, name)
				checkServer(t, where+" "+name, server, read)
				counts["toml"]++
			}
		case "sh":
			text := strings.ReplaceAll(f.text, "\\\n", " ")
			for _, line := range strings.Split(text, "\n") {
				fields := strings.Fields(line)
				if len(fields) < 3 || fields[1] != "mcp" {
					continue
				}
				host := fields[0]
				if m := addJSON.FindStringSubmatch(line); m != nil {
					var server map[string]any
					require.NoError(t, json.Unmarshal([]byte(m[1]), &server), "%s: add-json's argument parses", where)
					_, wrapped := server["mcpServers"]
					assert.False(t, wrapped, "%s: add-json takes the inner object", where)
					checkServer(t, where, server, read)
					counts["add-json"]++
					continue
				}
				settings := envFlag.FindAllStringSubmatch(line, -1)
				require.NotEmpty(t, settings, "%s: %s mcp add sets the environment", where, host)
				for _, m := range settings {
					assert.True(t, read[m[1]], "%s: %s is a variable the server reads", where, m[1])
				}
				if host != "gemini" { // gemini takes the command as its second argument
					assert.Contains(t, line, " -- ", "%s: the command comes after --", where)
				}
				counts[host]++
			}
		}
	}
	// The snippets this test exists for are all there: a README that lost
	// one, or a parser that stopped finding them, fails.
	assert.GreaterOrEqual(t, counts["json"], 7, "the mcpServers snippets")
	assert.Equal(t, 2, counts["toml"], "Codex's config.toml snippet, and its Windows form")
	assert.Equal(t, 1, counts["claude"], "claude mcp add")
	assert.Equal(t, 1, counts["add-json"], "claude mcp add-json")
	assert.Equal(t, 1, counts["gemini"], "gemini mcp add")
	assert.Equal(t, 1, counts["codex"], "codex mcp add")
}
