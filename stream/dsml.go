package stream

// DeepSeek-V3.2's DSML markup: <invoke> calls whose tags carry the
// ｜DSML｜ prefix (U+FF5C FULLWIDTH VERTICAL LINE around DSML), as its
// chat encoding writes them.
const (
	dsmlOpen       = "<｜DSML｜function_calls>"
	dsmlClose      = "</｜DSML｜function_calls>"
	dsmlInvoke     = "<｜DSML｜invoke name="
	dsmlInvokeEnd  = "</｜DSML｜invoke>"
	dsmlParam      = "<｜DSML｜parameter name="
	dsmlParamClose = "</｜DSML｜parameter>"
)

// DeepSeekDSML registers the deepseek-dsml syntax (DeepSeek-V3.2):
// <｜DSML｜function_calls><｜DSML｜invoke name="NAME"><｜DSML｜parameter
// name="P" string="true">value</｜DSML｜parameter>…</｜DSML｜invoke>
// </｜DSML｜function_calls>. It is the <invoke> form of the tools scanner
// with DSML's tags; a value is raw text typed by the schema (the string
// attribute, which says whether the model wrote the value as a string or
// as JSON, is read but the schema's type decides).
func (registry) DeepSeekDSML() *Syntax {
	f := xmlForm{wrapOpen: dsmlOpen, wrapClose: dsmlClose,
		call:        func(b []byte) ([]byte, int, bool) { return attrNamed(b, dsmlInvoke) },
		callClose:   dsmlInvokeEnd,
		param:       dsmlParamTag,
		paramPrefix: dsmlParam, paramClose: dsmlParamClose, rawText: true}
	return xmlSyntax("deepseek-dsml", `<｜DSML｜function_calls><｜DSML｜invoke name="…"><｜DSML｜parameter name="…" string="true">…</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>`,
		f, staticMarkers(dsmlOpen))
}

// dsmlParamTag matches a DSML parameter's opening tag at the start of b:
// <｜DSML｜parameter name="P" string="true|false">, the string attribute
// optional (and its value any name), the name quoted or not.
func dsmlParamTag(b []byte) ([]byte, int, bool) {
	name, j, ok, more := quotedName(b, dsmlParam)
	if !ok {
		return nil, 0, more
	}
	// white space, an optional string="…" attribute, white space, '>'
	for attr := true; ; attr = false {
		k, more := spaces(b, j)
		if more {
			return nil, 0, true
		}
		if e, ok, more := seq(b, k, ">"); ok {
			return name, e, false
		} else if more {
			return nil, 0, true
		}
		if !attr || k == j {
			return nil, 0, false
		}
		if k, ok, more = seq(b, k, "string="); !ok {
			return nil, 0, more
		}
		if k == len(b) {
			return nil, 0, true
		}
		q := ""
		if b[k] == '"' || b[k] == '\'' {
			q = string(b[k])
			k++
		}
		v, more := nameEnd(b, k)
		if more {
			return nil, 0, true
		}
		if j, ok, more = seq(b, v, q); !ok {
			return nil, 0, more
		}
	}
}
