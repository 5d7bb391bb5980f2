/// A minimal XML DOM for scripts (SCXML B.2.2: XML in `<data>`, `<content>` and event data is a
/// DOM document in the ECMAScript datamodel). Duktape has no DOM, so this prelude defines one
/// in ES5: documents, elements, text, comments and processing instructions with the usual
/// read API (`documentElement`, `childNodes`, `firstChild`, `getElementsByTagName`,
/// `getAttribute`, `textContent`, ...), a few setters, and `toString()` giving the markup.
///
/// A session runs it the first time it builds a DOM (`ECMAScriptDatamodel.prepareDOM`), so
/// sessions of documents without XML content never hold it.
///
/// The prelude installs one non-enumerable, read-only global, `__scxmlRuntime`, with `dom(tree)`
/// (builds a document from ``SCXMLMarkup/documentTree(of:)``'s description) and
/// `isNode(value)`.
enum ECMAScriptDOM {
    static let runtimeName = "__scxmlRuntime"

    static let prelude = #"""
    (function (global) {
        'use strict';
        function hidden(object, name, value) {
            Object.defineProperty(object, name, { value: value, writable: true, enumerable: false, configurable: true });
        }
        function nodeList(items) {
            hidden(items, 'item', function (index) { return index < this.length ? this[index] : null; });
            return items;
        }
        function escapeText(text) {
            return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
        }
        function escapeAttribute(text) {
            return escapeText(text).replace(/"/g, '&quot;');
        }

        function Node() {}
        Object.defineProperties(Node.prototype, {
            firstChild: { get: function () { return this.childNodes.length ? this.childNodes[0] : null; } },
            lastChild: { get: function () { return this.childNodes.length ? this.childNodes[this.childNodes.length - 1] : null; } },
            nextSibling: { get: function () { return sibling(this, 1); } },
            previousSibling: { get: function () { return sibling(this, -1); } },
            nodeValue: { get: function () { return this.nodeType === 1 || this.nodeType === 9 ? null : this.data; } },
            textContent: {
                get: function () {
                    if (this.nodeType !== 1 && this.nodeType !== 9) { return this.data; }
                    var text = '';
                    for (var i = 0; i < this.childNodes.length; i++) {
                        var child = this.childNodes[i];
                        if (child.nodeType !== 7 && child.nodeType !== 8) { text += child.textContent; }
                    }
                    return text;
                },
                set: function (text) {
                    if (this.nodeType !== 1 && this.nodeType !== 9) { this.data = String(text); return; }
                    var node = new Text(String(text));
                    hidden(node, 'parentNode', this);
                    this.childNodes.length = 0;
                    this.childNodes.push(node);
                }
            }
        });
        function sibling(node, step) {
            if (!node.parentNode) { return null; }
            var siblings = node.parentNode.childNodes;
            var index = siblings.indexOf(node) + step;
            return index >= 0 && index < siblings.length ? siblings[index] : null;
        }
        Node.prototype.hasChildNodes = function () { return this.childNodes.length > 0; };
        Node.prototype.getElementsByTagName = function (name) {
            return collect(this, function (element) { return name === '*' || element.tagName === name; });
        };
        Node.prototype.getElementsByTagNameNS = function (namespace, localName) {
            return collect(this, function (element) {
                return (namespace === '*' || element.namespaceURI === namespace) &&
                    (localName === '*' || element.localName === localName);
            });
        };
        Node.prototype.toString = function () { return serialize(this); };
        function collect(root, matches) {
            var found = [];
            (function walk(node) {
                for (var i = 0; i < node.childNodes.length; i++) {
                    var child = node.childNodes[i];
                    if (child.nodeType === 1) {
                        if (matches(child)) { found.push(child); }
                        walk(child);
                    }
                }
            })(root);
            return nodeList(found);
        }

        function Document() {
            this.nodeType = 9;
            this.nodeName = '#document';
            this.childNodes = nodeList([]);
        }
        Document.prototype = Object.create(Node.prototype);
        Document.prototype.constructor = Document;
        Object.defineProperty(Document.prototype, 'documentElement', {
            get: function () {
                for (var i = 0; i < this.childNodes.length; i++) {
                    if (this.childNodes[i].nodeType === 1) { return this.childNodes[i]; }
                }
                return null;
            }
        });

        function Element(description) {
            this.nodeType = 1;
            this.nodeName = description.tagName;
            this.tagName = description.tagName;
            this.localName = description.localName;
            this.prefix = description.prefix;
            this.namespaceURI = description.namespaceURI;
            this.attributes = nodeList(description.attributes.map(function (attribute) {
                return { name: attribute.name, localName: attribute.localName, prefix: attribute.prefix,
                         namespaceURI: attribute.namespaceURI, value: attribute.value };
            }));
            this.childNodes = nodeList([]);
            hidden(this, 'namespaceDeclarations', description.namespaceDeclarations || []);
        }
        Element.prototype = Object.create(Node.prototype);
        Element.prototype.constructor = Element;
        Object.defineProperty(Element.prototype, 'children', {
            get: function () { return nodeList(this.childNodes.filter(function (n) { return n.nodeType === 1; })); }
        });
        Element.prototype.getAttributeNode = function (name) {
            for (var i = 0; i < this.attributes.length; i++) {
                if (this.attributes[i].name === name) { return this.attributes[i]; }
            }
            return null;
        };
        Element.prototype.getAttribute = function (name) {
            var attribute = this.getAttributeNode(name);
            return attribute ? attribute.value : null;
        };
        Element.prototype.getAttributeNS = function (namespace, localName) {
            for (var i = 0; i < this.attributes.length; i++) {
                var attribute = this.attributes[i];
                if (attribute.namespaceURI === namespace && attribute.localName === localName) { return attribute.value; }
            }
            return null;
        };
        Element.prototype.hasAttribute = function (name) { return this.getAttributeNode(name) !== null; };
        Element.prototype.setAttribute = function (name, value) {
            var attribute = this.getAttributeNode(name);
            if (attribute) { attribute.value = String(value); return; }
            this.attributes.push({ name: name, localName: name, prefix: null, namespaceURI: null, value: String(value) });
        };
        Element.prototype.removeAttribute = function (name) {
            for (var i = 0; i < this.attributes.length; i++) {
                if (this.attributes[i].name === name) { this.attributes.splice(i, 1); return; }
            }
        };

        function Text(data) { this.nodeType = 3; this.nodeName = '#text'; this.data = data; this.childNodes = nodeList([]); }
        Text.prototype = Object.create(Node.prototype);
        function Comment(data) { this.nodeType = 8; this.nodeName = '#comment'; this.data = data; this.childNodes = nodeList([]); }
        Comment.prototype = Object.create(Node.prototype);
        function ProcessingInstruction(target, data) {
            this.nodeType = 7; this.nodeName = target; this.target = target; this.data = data; this.childNodes = nodeList([]);
        }
        ProcessingInstruction.prototype = Object.create(Node.prototype);

        function build(description) {
            var node;
            switch (description.nodeType) {
            case 9: node = new Document(); break;
            case 1: node = new Element(description); break;
            case 3: return new Text(description.data);
            case 8: return new Comment(description.data);
            case 7: return new ProcessingInstruction(description.target, description.data);
            default: return null;
            }
            for (var i = 0; i < description.childNodes.length; i++) {
                var child = build(description.childNodes[i]);
                if (child) {
                    hidden(child, 'parentNode', node);
                    node.childNodes.push(child);
                }
            }
            return node;
        }

        function serialize(node) {
            switch (node.nodeType) {
            case 3: return escapeText(node.data);
            case 8: return '<!--' + node.data + '-->';
            case 7: return '<?' + node.target + (node.data ? ' ' + node.data : '') + '?>';
            case 9: return node.childNodes.map(serialize).join('');
            case 1:
                var text = '<' + node.tagName;
                node.namespaceDeclarations.forEach(function (declaration) {
                    text += ' xmlns' + (declaration.prefix ? ':' + declaration.prefix : '') + '="' + escapeAttribute(declaration.uri) + '"';
                });
                node.attributes.forEach(function (attribute) {
                    text += ' ' + attribute.name + '="' + escapeAttribute(attribute.value) + '"';
                });
                if (!node.childNodes.length) { return text + '/>'; }
                return text + '>' + node.childNodes.map(serialize).join('') + '</' + node.tagName + '>';
            default: return '';
            }
        }

        Object.defineProperty(global, '__scxmlRuntime', {
            value: Object.freeze({
                dom: function (tree) { return build(tree); },
                isNode: function (value) { return value instanceof Node; }
            }),
            writable: false, enumerable: false, configurable: false
        });
    })(this);
    """#
}
