package render

import (
	"html/template"
	"sync"

	"github.com/plangram/plangram/internal/number"
)

// csp forbids everything but the page's own inline styles: no scripts, no
// fetches of any kind (images, fonts, frames), no forms, no <base>.
const csp = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

// pageTemplate is parsed once, when a page is first rendered (not at
// start-up: every command of the plangram binary would pay for it); a
// parsed html/template is safe for concurrent use and never modified
// after parsing.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"plural": number.Plural[int],
	}).Parse(pageHTML))
})

// pageHTML is the page in three parts that a writer executes in turn, so
// that a page is written one item at a time (writePage): "head" (the
// header, the summary, metadata, rationale, memos and the diagnostics of
// the document), "item" once per top-level item (prose, a stray block, an
// action card) and "foot".
const pageHTML = `{{define "head"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="` + csp + `">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="plangram render">
<title>{{.Title}}</title>
<style>` + pageCSS + `</style>
{{- if .Workspace}}
<style>` + stepsCSS + `</style>
{{- end}}
</head>
<body>
<div class="page">
<header class="page-head">
<span class="kind">{{.Kind}}</span>
{{- if not .Document}}
<h1>{{.Heading}}</h1>
{{- end}}
{{- with .Subtitle}}
<p class="subtitle">{{.}}</p>
{{- end}}
{{- if .Summary.List}}
<details class="summary" open>
<summary>{{with .Summary.Errors}}<span class="count sev-error">{{plural . "error"}}</span> {{end}}{{with .Summary.Warnings}}<span class="count sev-warning">{{plural . "warning"}}</span> {{end}}{{with .Summary.Infos}}<span class="count sev-info">{{plural . "note"}}</span>{{end}}</summary>
<ol>
{{- range .Summary.List}}
<li class="sev-{{.Severity}}"><a href="#{{.ID}}"><span class="sev">{{.Severity}}</span> <span class="diag-pos">{{.Pos}}</span> {{.Message}}</a></li>
{{- end}}
</ol>
</details>
{{- end}}
</header>
<main>
{{- if .Document}}
<article class="markdown doc">
{{end}}
{{- if .Metadata}}
<section class="metadata">
<h2>Metadata</h2>
<table>
{{- range .Metadata}}
<tr><th scope="row">{{.Key}}</th><td>{{.Value}}</td></tr>
{{- end}}
</table>
</section>
{{- end}}
{{- with .Rationale}}
<section class="rationale">
<h2>Rationale</h2>
<div class="rationale-text">{{.}}</div>
</section>
{{- end}}
{{- if .Memos}}
<section class="memos">
<h2>Memos</h2>
<ul>
{{- range .Memos}}
<li class="{{if .Add}}memo-add{{else}}memo-remove{{end}}"><span class="memo-mark">{{if .Add}}+{{else}}−{{end}}</span> {{.Text}}</li>
{{- end}}
</ul>
</section>
{{- end}}
{{- range .DocDiags}}
{{template "diag" .}}
{{- end}}
{{- end}}
{{define "item"}}
{{- with .Prose}}
{{template "prose" .}}
{{- end}}
{{- with .Block}}
<section class="stray">
{{template "block" .}}
</section>
{{- end}}
{{- end}}
{{define "unshown"}}
{{- range .}}
{{template "diag" .}}
{{- end}}
{{- end}}
{{define "foot"}}
</main>
<footer>Rendered by <code>plangram render</code>: a static page — no scripts, nothing loaded from the network. Block contents are shown byte for byte; labels such as <span class="ctl" data-cp="CR"></span> stand for invisible characters.</footer>
</div>
</body>
</html>
{{end}}
{{define "diag" -}}
<div class="diag sev-{{.Severity}}" id="{{.ID}}">
<span class="sev">{{.Severity}}</span> <span class="diag-pos">{{.Pos}}</span> <span class="msg">{{.Message}}</span>{{with .Code}} <code class="diag-code">{{.}}</code>{{end}}
{{- range .Related}}
<div class="related">{{.Pos}}: {{.Message}}</div>
{{- end}}
{{- with .Detail}}
<pre class="detail">{{.}}</pre>
{{- end}}
</div>
{{- end}}
{{define "prose" -}}
<div class="prose markdown{{with .Kind}} prose-{{.}}{{end}}{{if .Label}} md-param{{end}}" id="{{.ID}}">
{{- with .Label}}
<div class="md-param-label">{{.}}</div>
{{- end}}
{{- range .Diags}}
{{template "diag" .}}
{{- end}}
{{.HTML}}</div>
{{- end}}
{{define "block" -}}
<figure class="block{{if .Unclosed}} unclosed{{end}}" id="{{.ID}}">
<figcaption><span class="block-title">{{.Title}}</span>
{{- with .Role}} <span class="role">{{.}}</span>{{end}}
{{- if .Info}} <code class="info">{{.Info}}</code>{{end}}
{{- if .Unclosed}} <span class="badge sev-error">unclosed</span>{{end}}
<span class="meta">{{plural .Lines "line"}} · {{plural .Bytes "byte"}}{{if .CRLF}} · CRLF{{end}}</span> <span class="pos">{{.Pos}}</span></figcaption>
{{- range .Diags}}
{{template "diag" .}}
{{- end}}
{{.Code}}
</figure>
{{- end}}
{{define "action-head" -}}
<article class="action{{if .Unknown}} unknown{{end}}" id="{{.ID}}">
<header class="action-head">
<a class="index" href="#{{.ID}}">{{.Index}}</a>
<h2 class="action-name"{{with .Description}} title="{{.}}"{{end}}><code>{{.Name}}</code></h2>
{{- if .Unknown}} <span class="badge">unknown action</span>{{end}}
{{- with .Signature}} <code class="signature">{{.}}</code>{{end}}
<span class="pos">{{.Pos}}</span>
</header>
{{- with .Description}}
<p class="desc">{{.}}</p>
{{- end}}
{{- range .Diags}}
{{template "diag" .}}
{{- end}}
{{- if .Params}}
<table class="params">
{{- range .Params}}
<tr{{if .Missing}} class="missing"{{end}}><th scope="row"{{with .Doc}} title="{{.}}"{{end}}>{{.Name}}</th><td class="type">{{.Type}}</td><td class="value">{{if .Missing}}<span class="missing">missing</span>{{else}}{{.Value}}{{end}}</td><td class="from">{{if .FromID}}<a href="#{{.FromID}}">{{.From}}</a>{{else}}{{.From}}{{end}}</td></tr>
{{- end}}
</table>
{{- end}}
{{- if .Args}}
<p class="args"><span class="label">arguments</span>{{range .Args}} <code>{{.}}</code>{{end}}</p>
{{- end}}
{{- if .Extra}}
<p class="args extra"><span class="label">arguments no parameter takes</span>{{range .Extra}} <code>{{.}}</code>{{end}}</p>
{{- end}}
{{- end}}
{{define "item-action-head"}}
{{template "action-head" .}}
{{- end}}
{{define "part"}}
{{- with .Prose}}
{{template "prose" .}}
{{- end}}
{{- with .Block}}
{{template "block" .}}
{{- end}}
{{- with .Pair}}
<div class="pair">
<div class="pair-side old">{{template "block" .Old}}</div>
<div class="pair-side new">{{template "block" .New}}</div>
</div>
{{- if .Identical}}
<p class="note">The two blocks are identical: this replacement changes nothing.</p>
{{- end}}
{{- end}}
{{- end}}
{{define "steps"}}
<section class="steps">
<h3 class="steps-title">What <code>apply</code> does here</h3>
{{- if .None}}
<p class="note">Against the workspace this action changes no file (its diagnostics say why).</p>
{{- end}}
{{- range .Steps}}
<figure class="block step" id="{{.ID}}">
<figcaption><span class="block-title">{{.What}}</span> <code class="info">{{.Path}}</code>{{with .Stats}} <span class="meta">{{.}}</span>{{end}}</figcaption>
{{- with .Note}}
<p class="note">{{.}}</p>
{{- end}}
{{- with .Code}}
{{.}}
{{- end}}
</figure>
{{- end}}
{{- with .Skipped}}
<p class="note">{{.}}</p>
{{- end}}
</section>
{{- end}}
{{define "action-foot"}}
</article>
{{- end}}
`

const pageCSS = `
:root{--bg:#f5f6f8;--card:#fff;--line:#d8dee4;--text:#1f2328;--muted:#59636e;--accent:#0969da;
--err:#cf222e;--err-bg:#ffebe9;--warn:#bf8700;--warn-bg:#fff8c5;--info:#0969da;--info-bg:#ddf4ff;
--code:#f6f8fa;--del:#ffebe9;--ins:#dafbe1;--mono:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"DejaVu Sans Mono","Liberation Mono",monospace}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans","Liberation Sans",Arial,sans-serif}
.page{max-width:1120px;margin:0 auto;padding:28px 24px 40px}
a{color:var(--accent)}
code,pre{font-family:var(--mono)}
code{font-size:.88em;background:rgba(175,184,193,.2);padding:.1em .35em;border-radius:5px;overflow-wrap:anywhere}
.page-head{margin-bottom:20px}
.page-head h1{margin:.25em 0 .1em;font-size:30px;line-height:1.25;overflow-wrap:anywhere}
.kind{display:inline-block;font:600 11px/1 var(--mono);text-transform:uppercase;letter-spacing:.08em;color:var(--muted);border:1px solid var(--line);border-radius:999px;padding:5px 9px;background:var(--card)}
.subtitle{color:var(--muted);margin:0}
.summary{margin-top:14px;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 14px}
.summary summary{cursor:pointer;font-weight:600}
.summary ol{margin:8px 0 0;padding-left:22px;font-size:14px}
.summary li{margin:2px 0}
.summary li a{color:inherit;text-decoration:none}
.summary li a:hover{text-decoration:underline}
.count{display:inline-block;border-radius:999px;padding:1px 10px;font-size:13px;margin-right:4px}
.count.sev-error{background:var(--err-bg);color:var(--err)}
.count.sev-warning{background:var(--warn-bg);color:#7d4e00}
.count.sev-info{background:var(--info-bg);color:var(--info)}
h2{font-size:18px}
section.metadata,section.rationale,section.memos{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:4px 16px 12px;margin:14px 0}
section.metadata h2,section.rationale h2,section.memos h2{font-size:13px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:10px 0 6px}
section.metadata table{border-collapse:collapse}
section.metadata th{text-align:left;padding:3px 18px 3px 0;font-weight:600;vertical-align:top;white-space:nowrap}
section.metadata td{padding:3px 0;vertical-align:top}
.rationale-text{white-space:pre-wrap;overflow-wrap:anywhere}
.memos ul{list-style:none;padding:0;margin:0}
.memo-mark{font:700 14px var(--mono);display:inline-block;width:1.2em}
.memo-add .memo-mark{color:#1a7f37}.memo-remove .memo-mark{color:var(--err)}
.prose{margin:14px 2px;overflow-wrap:anywhere}
.markdown>:first-child{margin-top:0}.markdown>:last-child{margin-bottom:0}
.markdown blockquote{margin:0;padding:0 1em;color:var(--muted);border-left:.25em solid var(--line)}
.markdown table{border-collapse:collapse}
.markdown th,.markdown td{border:1px solid var(--line);padding:4px 10px}
.markdown h1{font-size:26px}.markdown h2{font-size:21px;border-bottom:1px solid var(--line);padding-bottom:.2em}.markdown h3{font-size:17px}
.doc{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:22px 28px}
.action{background:var(--card);border:1px solid var(--line);border-radius:12px;margin:18px 0;padding-bottom:14px;box-shadow:0 1px 3px rgba(31,35,40,.07)}
.action.unknown{border-style:dashed}
.action-head{display:flex;flex-wrap:wrap;align-items:center;gap:10px;padding:10px 16px;border-bottom:1px solid var(--line);background:#f9fafb;border-radius:12px 12px 0 0}
.index{display:inline-flex;align-items:center;justify-content:center;min-width:28px;height:28px;padding:0 6px;border-radius:999px;background:var(--accent);color:#fff;font:700 13px/1 var(--mono);text-decoration:none}
.action-name{margin:0;font-size:18px}
.action-name code{font-size:18px;background:none;padding:0;font-weight:700}
.signature{color:var(--muted);background:none;font-size:13px}
.badge{display:inline-block;font-size:12px;border-radius:999px;padding:1px 9px;background:var(--warn-bg);color:#7d4e00;border:1px solid #eac54f}
.badge.sev-error{background:var(--err-bg);color:var(--err);border-color:#ff8182}
.pos{margin-left:auto;color:var(--muted);font:12px var(--mono)}
.desc{margin:10px 16px 0;color:var(--muted);font-size:14px}
table.params{border-collapse:collapse;margin:10px 16px 0;width:calc(100% - 32px);font-size:14px}
table.params th,table.params td{padding:5px 14px 5px 0;vertical-align:top;border-top:1px solid #eef1f4}
table.params tr:first-child th,table.params tr:first-child td{border-top:0}
table.params th{text-align:left;font:600 13px/1.6 var(--mono);white-space:nowrap;width:1%}
table.params th[title]{text-decoration:underline dotted #8c959f;text-underline-offset:3px;cursor:help}
td.type{color:var(--muted);font-size:12px;white-space:nowrap;width:1%;padding-top:7px}
td.value{overflow-wrap:anywhere}
td.from{color:var(--muted);font-size:12px;white-space:nowrap;width:1%;text-align:right;padding-right:0;padding-top:7px}
tr.missing th,span.missing{color:var(--err)}
.see,.empty,.null{color:var(--muted);font-style:italic}
.bool{font:600 13px var(--mono)}.bool.true{color:#1a7f37}.bool.false{color:var(--err)}
ul.list{margin:0;padding-left:18px}
pre.text{margin:0;white-space:pre-wrap;font-size:13px;overflow-wrap:anywhere}
.args{margin:10px 16px 0;font-size:14px}
.label{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.05em}
figure.block{margin:12px 16px 0;border:1px solid var(--line);border-radius:8px;overflow:hidden;background:var(--code)}
figure.block.unclosed{border-color:#ff8182}
figcaption{display:flex;flex-wrap:wrap;gap:8px;align-items:center;padding:5px 10px;font-size:12px;color:var(--muted);border-bottom:1px solid var(--line);background:var(--card)}
.block-title{font-weight:600;color:var(--text)}
.role{font:600 12px var(--mono);color:#fff;background:#57606a;border-radius:4px;padding:0 6px}
.pair-side.old .role{background:var(--err)}.pair-side.new .role{background:#1a7f37}
code.info{font-size:12px}
figcaption .pos{font-size:11px}
figure.block>.diag{margin:8px 10px}
pre.code{margin:0;padding:8px 0;overflow-x:auto;font-size:13px;line-height:1.5;tab-size:4;-moz-tab-size:4;counter-reset:line}
pre.code code{background:none;padding:0;font-size:inherit;border-radius:0;overflow-wrap:normal;display:block;min-width:max-content}
pre.code .line{display:block;padding-right:14px}
pre.code .line::before{counter-increment:line;content:counter(line);display:inline-block;width:3.2em;margin-right:14px;padding-right:8px;text-align:right;color:#8c959f;border-right:1px solid var(--line);user-select:none;-webkit-user-select:none}
pre.code .line.del{background:var(--del)}pre.code .line.del::before{color:var(--err);content:counter(line) " −"}
pre.code .line.ins{background:var(--ins)}pre.code .line.ins::before{color:#1a7f37;content:counter(line) " +"}
.pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px;margin:12px 16px 0}
.pair figure.block{margin:0;height:100%}
.note{margin:8px 16px 0;font-size:13px;color:#7d4e00}
@media (max-width:820px){.pair{grid-template-columns:minmax(0,1fr)}}
.md-code{margin:0 0 16px;border:1px solid var(--line);border-radius:8px;overflow:hidden;background:var(--code)}
.md-code-info{font:12px var(--mono);color:var(--muted);padding:3px 10px;border-bottom:1px solid var(--line);background:var(--card)}
.action .prose{margin:12px 16px 0;color:var(--muted);font-size:14px}
.action .prose.md-param{color:var(--text);font-size:15px;border:1px solid var(--line);border-radius:8px;padding:8px 14px 10px}
.md-param-label{font:600 12px var(--mono);color:#fff;background:#57606a;border-radius:4px;padding:0 6px;display:inline-block;margin-bottom:6px}
ol.groups{margin:0;padding-left:20px}.group-key{font:600 12px var(--mono);color:var(--muted)}
.ctl .raw{display:none}
.ctl::after{content:attr(data-cp);font:10px/1 var(--mono);color:#953800;background:#fff1e5;border:1px solid #ffc680;border-radius:3px;padding:0 2px;margin:0 1px;vertical-align:1px}
code.raw-html,pre.raw-html{color:#6e7781;background:#f6f8fa;border:1px dashed #d0d7de}
pre.raw-html{padding:8px 12px;white-space:pre-wrap;border-radius:6px;font-size:13px}
.link-removed{text-decoration:line-through wavy #cf222e;color:var(--muted)}
.link-removed::after{content:" (link removed)";font-size:11px;color:var(--err)}
.image-mark{font-size:11px;border:1px solid var(--line);border-radius:3px;padding:0 3px;color:var(--muted)}
.diag{border-left:4px solid;padding:6px 10px;margin:10px 16px 0;border-radius:4px;font-size:14px;overflow-wrap:anywhere}
.prose>.diag,main>.diag{margin-left:0;margin-right:0}
.diag.sev-error{border-color:var(--err);background:var(--err-bg)}
.diag.sev-warning{border-color:var(--warn);background:var(--warn-bg)}
.diag.sev-info{border-color:var(--info);background:var(--info-bg)}
.sev{font:700 11px var(--mono);text-transform:uppercase;letter-spacing:.04em}
.sev-error .sev{color:var(--err)}.sev-warning .sev{color:#7d4e00}.sev-info .sev{color:var(--info)}
.diag-pos{font:12px var(--mono);color:var(--muted)}
.diag-code{font-size:12px}
.related{font-size:13px;color:var(--muted);margin-top:2px}
pre.detail{margin:6px 0 0;font-size:12px;white-space:pre;overflow-x:auto;background:rgba(255,255,255,.6);padding:6px 8px;border-radius:4px}
.t-kw{color:#cf222e}.t-str{color:#0a3069}.t-com{color:#6e7781;font-style:italic}.t-num{color:#0550ae}
.t-fn{color:#8250df}.t-bi{color:#953800}.t-attr{color:#116329}.t-op{color:#cf222e}.t-pre{color:#6e7781}
.t-del{color:#82071e}.t-ins{color:#116329}.t-head{color:#0550ae;font-weight:600}
footer{margin-top:30px;color:var(--muted);font-size:12px;border-top:1px solid var(--line);padding-top:10px}
footer code{font-size:11px}
`

// stepsCSS styles the steps of a page rendered against a workspace
// (Options.Workspace); a page without one has none of it.
const stepsCSS = `
.steps{margin:14px 16px 0;border-top:1px dashed var(--line);padding-top:4px}
.steps-title{margin:8px 0 0;font-size:13px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.steps-title code{text-transform:none;letter-spacing:0}
.steps .note{margin:8px 0 0}
.steps figure.block.step{margin:10px 0 0}
figure.step .note{margin:8px 10px}
figure.step pre.code .line::before{display:none}
figure.step pre.code .line{padding-left:12px}
figure.step pre.code .line.head{color:var(--muted);font-weight:600}
figure.step pre.code .line.hunk{background:var(--info-bg);color:var(--info)}
`
