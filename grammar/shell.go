package grammar

// word is one shell word with the byte range [start, end) it was read from.
type word struct {
	text       string
	start, end int
}

// shellSplit splits line into words as a POSIX shell would, appending them
// to dst: blanks separate words; single quotes keep everything literally;
// double quotes keep everything but honour \" \\ \$ \` and backslash-newline;
// outside quotes a backslash escapes the next byte. unterminated reports a
// quote left open (the rest of the line is then taken literally into the
// last word). At most max words are read (no limit when max < 0): rest is
// then the offset in line of the first word not read, -1 when every word
// was read.
func shellSplit(dst []word, line string, max int) (words []word, unterminated bool, rest int) {
	words = dst
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == '\n') {
			i++
		}
		if i >= len(line) {
			break
		}
		if max >= 0 && len(words)-len(dst) == max {
			return words, unterminated, i
		}
		start := i
		// b is the word's text from its first quote or escape on; a word
		// without one is its own bytes and b stays nil (no copy).
		var b []byte
	word:
		for i < len(line) {
			c := line[i]
			if b == nil && (c == '\'' || c == '"' || c == '\\') {
				b = append(make([]byte, 0, i-start+16), line[start:i]...)
			}
			switch c {
			case ' ', '\t', '\r', '\n':
				break word
			case '\'':
				j := i + 1
				for j < len(line) && line[j] != '\'' {
					j++
				}
				b = append(b, line[i+1:j]...)
				if j >= len(line) {
					unterminated = true
					i = j
					break word
				}
				i = j + 1
			case '"':
				j := i + 1
				for j < len(line) && line[j] != '"' {
					if line[j] == '\\' && j+1 < len(line) {
						switch line[j+1] {
						case '"', '\\', '$', '`':
							b = append(b, line[j+1])
							j += 2
							continue
						}
					}
					b = append(b, line[j])
					j++
				}
				if j >= len(line) {
					unterminated = true
					i = j
					break word
				}
				i = j + 1
			case '\\':
				if i+1 < len(line) {
					b = append(b, line[i+1])
					i += 2
				} else {
					b = append(b, c)
					i++
				}
			default:
				if b != nil {
					b = append(b, c)
				}
				i++
			}
		}
		text := line[start:i]
		if b != nil {
			text = string(b)
		}
		words = append(words, word{text: text, start: start, end: i})
	}
	return words, unterminated, -1
}
