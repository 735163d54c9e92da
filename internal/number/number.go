// Package number formats counts for messages.
package number

import "strconv"

// Thousands writes n with commas between groups of three digits: 1,234
// (-1,234 below zero).
func Thousands(n int) string {
	if n < 0 {
		return "-" + Thousands(-n)
	}
	s := strconv.Itoa(n)
	b := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return string(b)
}

// Noun returns noun, with an s unless n is 1.
func Noun[T ~int | ~int64](n T, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// Plural returns n and noun: "1 file", "2 files".
func Plural[T ~int | ~int64](n T, noun string) string {
	return strconv.FormatInt(int64(n), 10) + " " + Noun(n, noun)
}
