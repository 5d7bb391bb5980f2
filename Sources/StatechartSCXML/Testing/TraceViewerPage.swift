/// The trace viewer's HTML: the template around the chart's SVG and the trace's data. Every
/// byte the page needs is in it (no network access, no external script or style), so it opens
/// from disk in any browser.
enum TraceViewerPage {
    /// The page for `svg` (inline SVG markup) and `json` (``SCXMLTraceViewer``'s data, with
    /// `</` already escaped).
    static func html(title: String, svg: String, json: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
        <title>\(escape(title))</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        <header>
          <strong>\(escape(title))</strong>
          <span class="controls">
            <button id="first" title="Start-up (Home)">|&#x25C0;</button>
            <button id="previous" title="Previous step (&#x2190;)">&#x25C0;</button>
            <button id="next" title="Next step (&#x2192;)">&#x25B6;</button>
            <button id="last" title="Last step (End)">&#x25B6;|</button>
            <input id="slider" type="range" min="0" value="0" aria-label="step">
            <span id="position"></span>
          </span>
        </header>
        <main>
          <section id="chart">\(svg)</section>
          <aside>
            <h2>Step <span id="step-number"></span>: <span id="step-label"></span></h2>
            <p>Active: <span id="active-states"></span></p>
            <ol id="microsteps"></ol>
            <h2>Events</h2>
            <div id="events-box"><ol id="events" start="0"></ol></div>
          </aside>
        </main>
        <script type="application/json" id="trace-data">\(json)</script>
        <script>
        \(script)
        </script>
        </body>
        </html>

        """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static let style = """
        body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: #1f2937; }
        header { position: sticky; top: 0; z-index: 1; background: #f3f4f6; border-bottom: 1px solid #d1d5db;
                 padding: 6px 12px; display: flex; gap: 16px; align-items: center; }
        .controls { display: flex; gap: 6px; align-items: center; }
        #slider { width: 240px; }
        main { display: flex; align-items: flex-start; }
        #chart { flex: 1 1 auto; overflow: auto; padding: 8px; }
        #chart svg { max-width: 100%; height: auto; }
        aside { flex: 0 0 340px; max-height: calc(100vh - 44px); overflow: auto; border-left: 1px solid #d1d5db;
                padding: 0 12px; position: sticky; top: 44px; }
        h2 { font-size: 15px; margin: 12px 0 6px; }
        #microsteps li { margin-bottom: 6px; }
        #microsteps .error { color: #b91c1c; }
        /* The list is laid out on its own: what changes above it at each step, and the
           thousands of items below the fold, cost it nothing. */
        #events-box { height: 45vh; overflow: auto; contain: strict; border: 1px solid #e5e7eb; }
        #events { margin: 0; padding: 2px 4px; list-style: none; font-family: ui-monospace, monospace; white-space: pre; }
        #events li { cursor: pointer; height: 1.4em; content-visibility: auto; contain-intrinsic-size: auto 1.4em; }
        #events li.current { background: #fed7aa; }
        g.sc-active > path, g.sc-active > polygon, g.sc-active > ellipse { stroke: #c2410c; stroke-width: 3px; }
        g.node.sc-active > path, g.node.sc-active > polygon, g.node.sc-active > ellipse { fill: #ffedd5; }
        g.cluster.sc-active > path, g.cluster.sc-active > polygon { fill: #fff7ed; }
        g.sc-active > text { font-weight: bold; }
        g.sc-taken > path { stroke: #2563eb; stroke-width: 3px; }
        g.sc-taken > polygon { stroke: #2563eb; fill: #2563eb; }
        g.sc-taken > text { fill: #2563eb; font-weight: bold; }
        """

    /// Indexes the SVG's elements by class once; each step only moves classes between them.
    static let script = """
        (function () {
          'use strict';
          var data = JSON.parse(document.getElementById('trace-data').textContent);
          var steps = data.steps, names = data.states;
          var stateElements = {}, transitionElements = {};
          var groups = document.querySelectorAll('#chart svg g');
          for (var i = 0; i < groups.length; i++) {
            var classes = groups[i].classList;
            for (var c = 0; c < classes.length; c++) {
              var name = classes[c], table = null;
              if (name.indexOf('sc-s-') === 0) table = stateElements;
              else if (name.indexOf('sc-t-') === 0) table = transitionElements;
              if (table) { var key = name.slice(5); (table[key] = table[key] || []).push(groups[i]); }
            }
          }
          var events = document.getElementById('events');
          var fragment = document.createDocumentFragment();
          for (var s = 0; s < steps.length; s++) {
            var item = document.createElement('li');
            item.textContent = ('     ' + s).slice(-6) + '  ' + steps[s].label;
            item.dataset.step = s;
            fragment.appendChild(item);
          }
          events.appendChild(fragment);
          var slider = document.getElementById('slider');
          slider.max = Math.max(steps.length - 1, 0);
          var lit = [], current = -1, position = document.getElementById('position');
          function text(id, value) { document.getElementById(id).textContent = value; }
          function describe(step) {
            var list = document.getElementById('microsteps');
            list.textContent = '';
            step.microsteps.forEach(function (m) {
              var li = document.createElement('li');
              var parts = [(m.event === null ? 'eventless' : m.event) + ': ' +
                (m.transitions.length ? m.transitions.map(function (t) {
                  return t.source + ' \\u2192 ' + (t.targets.length ? t.targets.join(' ') : '(targetless)');
                }).join(', ') : 'start-up entry')];
              if (m.raised.length) parts.push('raised ' + m.raised.join(', '));
              if (m.sent.length) parts.push('sent ' + m.sent.map(function (e) {
                return e.event + (e.target ? ' to ' + e.target : '') + (e.delay ? ' after ' + e.delay + ' s' : '');
              }).join(', '));
              li.textContent = parts.join('; ');
              m.errors.forEach(function (e) {
                var error = document.createElement('div');
                error.className = 'error';
                error.textContent = e.event + ': ' + e.message;
                li.appendChild(error);
              });
              list.appendChild(li);
            });
            step.notes.forEach(function (n) {
              var li = document.createElement('li');
              if (n.error !== undefined) { li.className = 'error'; li.textContent = 'stopped: ' + n.error; }
              else li.textContent = 'unhandled: ' + n.unhandled;
              list.appendChild(li);
            });
          }
          function show(n) {
            if (!steps.length) return;
            n = Math.max(0, Math.min(steps.length - 1, n | 0));
            for (var i = 0; i < lit.length; i++) lit[i].classList.remove('sc-active', 'sc-taken');
            lit = [];
            var step = steps[n];
            step.active.forEach(function (s) {
              (stateElements[s] || []).forEach(function (e) { e.classList.add('sc-active'); lit.push(e); });
            });
            step.taken.forEach(function (t) {
              (transitionElements[t] || []).forEach(function (e) { e.classList.add('sc-taken'); lit.push(e); });
            });
            if (current >= 0) events.children[current].classList.remove('current');
            events.children[n].classList.add('current');
            current = n;
            slider.value = n;
            text('position', 'step ' + n + ' of ' + (steps.length - 1));
            text('step-number', n);
            text('step-label', step.label);
            text('active-states', step.active.map(function (s) { return names[s]; }).join(', '));
            position.dataset.currentStep = n;
            describe(step);
            try { history.replaceState(null, '', '#step=' + n); } catch (e) { /* some browsers refuse on file: */ }
          }
          var box = document.getElementById('events-box');
          function reveal() {
            var item = events.children[current], top = item.offsetTop, bottom = top + item.offsetHeight;
            if (top < box.scrollTop) box.scrollTop = top;
            else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
          }
          function go(delta) { show(current + delta); reveal(); }
          document.getElementById('first').onclick = function () { show(0); };
          document.getElementById('previous').onclick = function () { go(-1); };
          document.getElementById('next').onclick = function () { go(1); };
          document.getElementById('last').onclick = function () { show(steps.length - 1); };
          slider.oninput = function () { show(+slider.value); };
          events.onclick = function (e) { if (e.target.dataset.step !== undefined) show(+e.target.dataset.step); };
          document.addEventListener('keydown', function (e) {
            if (e.target === slider) return;
            if (e.key === 'ArrowRight' || e.key === 'ArrowDown') { go(1); e.preventDefault(); }
            else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') { go(-1); e.preventDefault(); }
            else if (e.key === 'Home') show(0);
            else if (e.key === 'End') show(steps.length - 1);
          });
          var match = /step=(\\d+)/.exec(location.hash);
          show(match ? +match[1] : 0);
          reveal();
        })();
        """
}
