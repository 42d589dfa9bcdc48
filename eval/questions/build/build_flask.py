"""Generator of eval/questions/flask.jsonl: the question specs, references and provenance (see eval/README.md)."""
import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_common import Builder
R = os.path.join(os.environ.get("STRATA_CORPUS_CACHE", os.path.expanduser("~/.cache/strata-corpus")), "flask-3.1.2")
b = Builder("flask", "3.1.2", R, ["examples/tutorial", "examples/javascript", "examples/celery/src"],
            os.environ.get("GRIMP_PICKLE_DIR", "/tmp/xcheck") + "/flask.grimp.pkl",
            "copy with __init__.py added to every folder holding .py files, packages docs, examples, flask, tests; 173/173 edges and all type_checking flags equal")
NS_GONE = "grimp does not see src/flask/sansio/ (no __init__.py), so this module does not exist in its graph."

# ---------------- imports_of
b.structural("imports_of", "What does src/flask/ctx.py import?",
    {"op": "imports-of", "module": "src/flask/ctx.py"}, [],
    "ctx.py imports flask.typing, flask.globals and flask.signals at module level, plus flask.app, flask.sessions and flask.wrappers inside `if t.TYPE_CHECKING:` (6 modules).",
    "src/flask/ctx.py:11-15 (`from . import typing as ft`, `.globals`, `.signals`), :17-22 under `if t.TYPE_CHECKING:` (`.app`, `.sessions`, `.wrappers`); line 165 `from flask import copy_current_request_context` is inside the docstring of copy_current_request_context, not an import.",
    {"runtime_only": "At runtime ctx.py imports only flask.typing, flask.globals and flask.signals; app, sessions and wrappers are type-checking-only imports."})
b.structural("imports_of", "Which flask modules does templating.py depend on directly?",
    {"op": "imports-of", "module": "flask.templating"}, [],
    "flask/templating.py imports flask.globals, flask.helpers, flask.signals and (lazily, inside DispatchingJinjaLoader._get_source_explained) flask.debughelpers; under TYPE_CHECKING it also imports flask.app, flask.sansio.app and flask.sansio.scaffold.",
    "src/flask/templating.py:10-16 (`.globals`, `.helpers`, `.signals`), :18-21 under `if t.TYPE_CHECKING:` (`.app`, `.sansio.app`, `.sansio.scaffold`), :83 `from .debughelpers import explain_template_loading_attempts` inside a method.",
    {"runtime_only": "At runtime: flask.debughelpers, flask.globals, flask.helpers and flask.signals; the app/sansio imports are TYPE_CHECKING-only.",
     "grimp_no_namespace": "Without the namespace package flask.sansio: flask.app, flask.debughelpers, flask.globals, flask.helpers and flask.signals."})
b.structural("imports_of", "What does flask.sessions import from the rest of the repository?",
    {"op": "imports-of", "module": "flask.sessions"}, [],
    "flask/sessions.py imports flask.json.tag (TaggedJSONSerializer) at runtime, and flask.app and flask.wrappers only for type checking.",
    "src/flask/sessions.py:14 `from .json.tag import TaggedJSONSerializer`; :16-21 under `if t.TYPE_CHECKING:` `from .app import Flask`, `from .wrappers import Request/Response`; the rest are itsdangerous/werkzeug/stdlib imports.",
    {"runtime_only": "At runtime flask.sessions imports only flask.json.tag."})
b.structural("imports_of", "List the internal imports of src/flask/sansio/app.py.",
    {"op": "imports-of", "module": "src/flask/sansio/app.py"}, [],
    "sansio/app.py imports flask.typing, flask.config, flask.ctx, flask.helpers, flask.json.provider, flask.logging, flask.templating and flask.sansio.scaffold, plus flask.testing and flask.sansio.blueprints under TYPE_CHECKING (10 modules).",
    "src/flask/sansio/app.py:20-34 (`from .. import typing as ft`, `..config`, `..ctx`, `..helpers`, `..json.provider`, `..logging`, `..templating`, `.scaffold`), :36-41 under `if t.TYPE_CHECKING:` (`..testing`, `.blueprints`); line 75 `from flask import Flask` is in the class docstring.",
    {"runtime_only": "At runtime the 8 modules without flask.testing and flask.sansio.blueprints, which are TYPE_CHECKING-only.",
     "grimp_no_namespace": NS_GONE})
b.structural("imports_of", "How many other modules does src/flask/app.py import directly, and which are they?",
    {"op": "imports-of", "module": "src/flask/app.py"}, ["number"],
    "13: flask.cli, flask.ctx, flask.debughelpers, flask.globals, flask.helpers, flask.sansio.app, flask.sansio.scaffold, flask.sessions, flask.signals, flask.templating, flask.testing, flask.typing and flask.wrappers.",
    "src/flask/app.py:29-55 module-level relative imports (cli, typing, ctx, globals, helpers, sansio.app, sansio.scaffold, sessions, signals, templating, wrappers); :57-63 TYPE_CHECKING (testing, typing); :502 `from .debughelpers import FormDataRoutingRedirect` and :722/:740/:1470 `from .testing import ...` inside methods (runtime); :97 and :696 are docstring examples.",
    {"grimp_no_namespace": "11 when flask.sansio is invisible: the same list without flask.sansio.app and flask.sansio.scaffold."})

# ---------------- imported_by
b.structural("imported_by", "Which modules import flask.signals?",
    {"op": "imported-by", "module": "flask.signals"}, [],
    "Five modules: flask/__init__.py, flask/app.py, flask/ctx.py, flask/helpers.py and flask/templating.py.",
    "grep of import lines for `.signals`: src/flask/__init__.py:28-37, app.py:48-52, ctx.py:14-15, helpers.py:22, templating.py:15-16; no test imports flask.signals directly.")
b.structural("imported_by", "Who depends directly on src/flask/json/tag.py?",
    {"op": "imported-by", "module": "src/flask/json/tag.py"}, [],
    "src/flask/sessions.py (for TaggedJSONSerializer) and tests/test_json_tag.py.",
    "grep: src/flask/sessions.py:14 `from .json.tag import TaggedJSONSerializer`; tests/test_json_tag.py:8-9 `from flask.json.tag import JSONTag, TaggedJSONSerializer`; the `from flask.json.tag import JSONTag` at json/tag.py:26 is in its own docstring.")
b.structural("imported_by", "Which modules import the Scaffold module, src/flask/sansio/scaffold.py?",
    {"op": "imported-by", "module": "src/flask/sansio/scaffold.py"}, [],
    "Six: flask/app.py, flask/blueprints.py, flask/sansio/app.py and flask/sansio/blueprints.py at runtime, and flask/debughelpers.py and flask/templating.py under TYPE_CHECKING.",
    "grep `scaffold` in import lines: app.py:45, blueprints.py:12, sansio/app.py:31-34, sansio/blueprints.py:9-12 (module level); debughelpers.py:13 and templating.py:21 are indented under `if t.TYPE_CHECKING:`.",
    {"runtime_only": "At runtime: flask/app.py, flask/blueprints.py, flask/sansio/app.py and flask/sansio/blueprints.py.",
     "grimp_no_namespace": NS_GONE})
b.structural("imported_by", "Which files import src/flask/wrappers.py directly?",
    {"op": "imported-by", "module": "src/flask/wrappers.py"}, [],
    "Ten: flask/__init__.py, app.py, blueprints.py, ctx.py, debughelpers.py, globals.py, helpers.py, json/__init__.py, sessions.py and tests/type_check/typing_route.py; seven of them only under TYPE_CHECKING.",
    "grep `.wrappers import`/`flask.wrappers`: __init__.py:42-43, app.py:54-55 and tests/type_check/typing_route.py:11 at module level; json/__init__.py:10, sessions.py:20-21, ctx.py:22, helpers.py:25, blueprints.py:15, debughelpers.py:14, globals.py:14 indented under `if t.TYPE_CHECKING:`; werkzeug.wrappers imports are external.",
    {"runtime_only": "At runtime only flask/__init__.py, flask/app.py and tests/type_check/typing_route.py import it."})
b.structural("imported_by", "How many modules import flask.globals directly?",
    {"op": "imported-by", "module": "flask.globals"}, ["number"],
    "17: twelve flask modules (__init__, app, blueprints, cli, ctx, debughelpers, helpers, json/__init__, logging, templating, views, wrappers) and five tests (conftest, test_appctx, test_reqctx, test_session_interface, test_testing).",
    "grep of `globals import`/`flask.globals` import lines: src/flask/__init__.py:13, app.py:33, blueprints.py:8, cli.py:23, ctx.py:12, debughelpers.py:9, helpers.py:16, json/__init__.py:6, logging.py:9, templating.py:10, views.py:6, wrappers.py:11, tests/conftest.py:8, tests/test_appctx.py:4, tests/test_reqctx.py:6, tests/test_session_interface.py:2, tests/test_testing.py:9.")

# ---------------- impact
b.structural("impact", "What would be affected if I changed src/flask/views.py?",
    {"op": "impact", "module": "src/flask/views.py"}, [],
    "Only tests: tests/test_views.py, tests/test_async.py, tests/test_helpers.py and tests/type_check/typing_route.py; no flask module imports flask.views, so nothing else depends on it.",
    "grep: tests/test_views.py:4 `import flask.views`, tests/test_async.py:8-9, tests/type_check/typing_route.py:10, tests/test_helpers.py:144 (inside a test function); none of these test modules is imported by another module.")
b.structural("impact", "If I modify examples/tutorial/flaskr/db.py, which modules are impacted transitively?",
    {"op": "impact", "module": "examples/tutorial/flaskr/db.py"}, [],
    "The rest of the flaskr package: flaskr/__init__.py (imports db inside create_app), flaskr/auth.py and flaskr/blog.py.",
    "examples/tutorial/flaskr/auth.py:14 and blog.py:11 `from .db import get_db`, blog.py:10 `from .auth import login_required`, flaskr/__init__.py:34-40 `from . import db/auth/blog` inside create_app; examples/tutorial/tests/*.py import `flaskr.db` by its installed name, which does not resolve with the repo root as the only source root.",
    {"extra_source_roots": "With examples/tutorial as a source root (flaskr installed, as its pyproject intends), the tutorial tests depend on it too: flaskr/__init__, auth, blog plus tests/conftest.py, test_auth.py, test_blog.py, test_db.py and test_factory.py."})
b.structural("impact", "Which modules transitively depend on the tutorial's flaskr/auth.py?",
    {"op": "impact", "module": "examples/tutorial/flaskr/auth.py"}, [],
    "examples/tutorial/flaskr/blog.py (imports login_required) and examples/tutorial/flaskr/__init__.py (registers the auth and blog blueprints).",
    "examples/tutorial/flaskr/blog.py:10 `from .auth import login_required`; flaskr/__init__.py:39-40 `from . import auth`, `from . import blog` inside create_app; auth.py itself imports flask and .db.",
    {"extra_source_roots": "With examples/tutorial as a source root: flaskr/__init__.py, flaskr/blog.py, examples/tutorial/tests/conftest.py and test_factory.py (both import `flaskr`)."})
b.structural("impact", "What depends, directly or indirectly, on examples/celery/src/task_app/tasks.py?",
    {"op": "impact", "module": "examples/celery/src/task_app/tasks.py"}, [],
    "task_app/views.py imports it (`from . import tasks`) and task_app/__init__.py imports views inside create_app, so both are affected.",
    "examples/celery/src/task_app/views.py:5 `from . import tasks`; task_app/__init__.py:23 `from . import views` inside create_app; examples/celery/make_celery.py:1 `from task_app import create_app` does not resolve without examples/celery/src as a source root.",
    {"extra_source_roots": "With examples/celery/src as a source root, examples/celery/make_celery.py (`from task_app import create_app`) is affected as well."})

# ---------------- cycles
b.structural("cycles", "How many modules are in the largest import cycle?",
    {"op": "cycles", "select": "largest"}, ["number"],
    "20 modules: every flask module except __main__, signals, typing and views forms one strongly connected component when TYPE_CHECKING imports count.",
    "Spot-checked edges: flask/__init__.py:6 imports .app, app.py:29 imports .cli, cli.py:23-25 `from .globals`/`from .helpers` and helpers.py:16 imports .globals; globals.py:9-14 (TYPE_CHECKING) imports .app/.ctx/.sessions/.wrappers, which closes the loop through globals, ctx, sessions, json.tag (sessions.py:14), json/__init__ (tag.py:56 `from ..json import dumps`).",
    {"runtime_only": "11 at runtime (flask/__init__, app, blueprints, cli, debughelpers, sansio/app, sansio/blueprints, sansio/scaffold, templating, testing, wrappers); grimp with exclude_type_checking_imports gives the same 11.",
     "grimp_no_namespace": "14 when the flask.sansio namespace package is invisible (grimp on the real tree finds this 14-module cycle)."})
b.structural("cycles", "Is flask/json/tag.py part of an import cycle?",
    {"op": "cycle-of", "module": "src/flask/json/tag.py"}, ["yes_no"],
    "Yes: json/tag.py imports flask.json (`from ..json import dumps, loads`), which reaches the app modules that import sessions, which imports json.tag; it is in the 20-module cycle, but only through TYPE_CHECKING imports.",
    "src/flask/json/tag.py:56-57 `from ..json import dumps/loads`; json/__init__.py:6 `from ..globals import current_app`; globals.py:9-14 TYPE_CHECKING imports of .app/.sessions; sessions.py:14 `from .json.tag import TaggedJSONSerializer`.",
    {"runtime_only": "No: at runtime globals.py imports nothing from flask, so json.tag -> json -> globals leads nowhere back; json/tag.py is in no runtime cycle.",
     "grimp_no_namespace": "Yes, in the 14-module cycle that grimp sees without flask.sansio."})
b.structural("cycles", "Is src/flask/views.py involved in any circular import?",
    {"op": "cycle-of", "module": "src/flask/views.py"}, ["yes_no"],
    "No. views.py imports flask.typing and flask.globals, but no flask module imports views (only tests do), so it cannot be on a cycle.",
    "src/flask/views.py:5-7 (`from . import typing as ft`, `.globals`); grep finds `flask.views` only in tests (test_views.py:4, test_async.py:8-9, test_helpers.py:144, type_check/typing_route.py:10).")
b.structural("cycles", "Ignoring imports that only happen under TYPE_CHECKING, is flask/ctx.py part of an import cycle?",
    {"op": "cycle-of", "module": "src/flask/ctx.py", "runtime": True}, ["yes_no"],
    "No: at runtime ctx.py only imports flask.typing, flask.globals and flask.signals, none of which imports anything from flask at runtime.",
    "src/flask/ctx.py:11-15 runtime imports; :17-22 TYPE_CHECKING; src/flask/globals.py imports flask modules only under `if t.TYPE_CHECKING:` (lines 8-14), signals.py and typing.py import no flask module.")
b.structural("cycles", "How many import cycles (strongly connected components) are there in the flask repository?",
    {"op": "cycles", "select": "count"}, ["number"],
    "One: the 20-module cycle in src/flask; tests and examples form no cycles.",
    "The examples' js_example/__init__.py:5 `from js_example import views` and views.py:5 `from . import app` would form a second cycle only if examples/javascript were a source root.",
    {"runtime_only": "Still one at runtime, but smaller: the 11-module runtime cycle (flask/__init__, app, blueprints, cli, debughelpers, sansio/app, sansio/blueprints, sansio/scaffold, templating, testing, wrappers).",
     "grimp_no_namespace": "Still one, the 14-module cycle grimp sees without the flask.sansio namespace package.",
     "extra_source_roots": "Two with the example projects as source roots: the flask cycle plus js_example/__init__.py <-> js_example/views.py."})

# ---------------- central
b.structural("central", "Which modules are imported by the most other modules?",
    {"op": "most-imported", "top": 5}, ["ranking", "ranking_k", "ranking_ties"],
    "flask/__init__.py (45 importers), flask/globals.py (17), flask/wrappers.py (10), flask/helpers.py (9), then flask/app.py and flask/sansio/app.py tied at 7.",
    "Counts are direct importers over the whole repo; flask/__init__.py is imported by almost every test and example (`from flask import ...`), globals by 12 flask modules and 5 tests (see the flask.globals question).",
    {"runtime_only": "At runtime: flask/__init__.py (45), globals (17), helpers (9), then cli.py and typing.py tied at 6; wrappers drops to 3 importers.",
     "grimp_no_namespace": "Without flask.sansio: flask/__init__.py (45), globals (17), wrappers (10), then app.py and helpers.py tied at 7.",
     "extra_source_roots": "With the example projects as source roots, examples/tutorial/flaskr/db.py also reaches 7 importers (its tutorial tests import flaskr.db), so fifth place is a three-way tie of flaskr/db.py, flask/app.py and flask/sansio/app.py."})
b.structural("central", "What is the single most imported module in flask, and how many modules import it?",
    {"op": "most-imported", "top": 1}, ["ranking", "ranking_k", "number"],
    "src/flask/__init__.py (the flask package itself) with 45 direct importers, mostly tests and examples using `from flask import ...`.",
    "grep of `from flask import`/`import flask` import lines across tests/, examples/ and src/flask: 45 distinct importing modules once docstring examples (e.g. helpers.py:75, app.py:97) are left out.")
b.structural("central", "At runtime (not counting TYPE_CHECKING-only imports), which three modules have the most direct importers?",
    {"op": "most-imported", "top": 3, "runtime": True}, ["ranking", "ranking_k"],
    "flask/__init__.py (45), flask/globals.py (17) and flask/helpers.py (9).",
    "globals.py is imported at module level by the 12 flask modules listed in the flask.globals question; helpers.py by __init__ (:17-26), app (:40-43), blueprints (:9), cli (:24-25), sansio/app (:24-25), sansio/scaffold (:18), templating (:14), wrappers (:12) and tests/test_helpers.py (:8).")

# ---------------- defined_in
b.structural("defined_in", "Where is the class Blueprint defined?",
    {"op": "defined-in", "name": "Blueprint"}, [],
    "Two classes: flask.sansio.blueprints.Blueprint (the IO-free base with registration logic) and flask.blueprints.Blueprint, which subclasses it and is the one exported as flask.Blueprint.",
    "src/flask/sansio/blueprints.py:119 `class Blueprint(Scaffold):`; src/flask/blueprints.py:18 `class Blueprint(SansioBlueprint):`; src/flask/__init__.py:7 re-exports `.blueprints.Blueprint`.",
    {"grimp_no_namespace": "Only src/flask/blueprints.py when the sansio namespace package is not indexed."})
b.structural("defined_in", "Which files define a create_app function?",
    {"op": "defined-in", "name": "create_app"}, [],
    "Three app factories: examples/tutorial/flaskr/__init__.py, examples/celery/src/task_app/__init__.py and tests/test_apps/cliapp/factory.py.",
    "grep `def create_app`: examples/tutorial/flaskr/__init__.py:6, examples/celery/src/task_app/__init__.py:7, tests/test_apps/cliapp/factory.py:4 (test functions named create_app inside tests/test_cli.py are nested, not top-level).")
b.structural("defined_in", "Where is SecureCookieSessionInterface defined?",
    {"op": "defined-in", "name": "SecureCookieSessionInterface"}, [],
    "In src/flask/sessions.py, as a subclass of SessionInterface.",
    "src/flask/sessions.py:298 `class SecureCookieSessionInterface(SessionInterface):`.")
b.structural("defined_in", "In which module is the route() decorator method of Scaffold implemented?",
    {"op": "defined-in", "name": "Scaffold.route"}, [],
    "src/flask/sansio/scaffold.py, method Scaffold.route, shared by Flask apps and blueprints.",
    "src/flask/sansio/scaffold.py:52 `class Scaffold:`, :336 `def route(self, rule: str, **options)` inside it.",
    {"grimp_no_namespace": "Nowhere in grimp's view: src/flask/sansio/scaffold.py is in a namespace package grimp does not index."})

# ---------------- exports
b.structural("exports", "Which public functions does the flask.json package provide?",
    {"op": "exports", "module": "flask.json"}, [],
    "flask.json (src/flask/json/__init__.py) has no __all__; its public functions are dumps, dump, loads, load and jsonify, all delegating to current_app.json when an app is active.",
    "src/flask/json/__init__.py:13 def dumps, :47 def dump, :77 def loads, :108 def load, :138 def jsonify; current_app and Response are imports, not definitions.")
b.structural("exports", "What names does the top-level flask package re-export?",
    {"op": "exports", "module": "src/flask/__init__.py"}, ["number"],
    "39 names, each via `from .x import name as name`: Blueprint, Config, Flask, Request, Response, abort, after_this_request, appcontext_popped, appcontext_pushed, appcontext_tearing_down, before_render_template, copy_current_request_context, current_app, flash, g, get_flashed_messages, get_template_attribute, got_request_exception, has_app_context, has_request_context, json, jsonify, make_response, message_flashed, redirect, render_template, render_template_string, request, request_finished, request_started, request_tearing_down, send_file, send_from_directory, session, stream_template, stream_template_string, stream_with_context, template_rendered, url_for.",
    "src/flask/__init__.py:5-43: 39 explicit re-exports (`from .app import Flask as Flask` ...); no __all__; `__getattr__` (line 47) only serves the deprecated __version__.")

# ---------------- where_handled
b.read("where_handled", "Where are HTTP exceptions raised in a view turned into error-handler responses?",
    ["src/flask/app.py", "src/flask/sansio/app.py"],
    "Flask.full_dispatch_request catches the exception and calls Flask.handle_user_exception, which sends HTTPExceptions to handle_http_exception; both look up a handler with App._find_error_handler (blueprint then app, by code then by class MRO) in sansio/app.py, and unhandled errors go to Flask.handle_exception (500).",
    "src/flask/app.py:744-777 handle_http_exception, :779-809 handle_user_exception, :811-862 handle_exception, :904-920 full_dispatch_request; src/flask/sansio/app.py:823-846 _find_error_handler, :848-881 trap_http_exception.")
b.read("where_handled", "Where is the session cookie written to the response?",
    ["src/flask/sessions.py", "src/flask/app.py"],
    "SecureCookieSessionInterface.save_session in flask/sessions.py serializes and signs the session and calls response.set_cookie (or delete_cookie when emptied); Flask.process_response in app.py calls it at the end of each request.",
    "src/flask/sessions.py:351-399 SecureCookieSessionInterface.save_session (set_cookie/delete_cookie, Vary: Cookie), :317-335 get_signing_serializer; src/flask/app.py:1298-1324 process_response calls self.session_interface.save_session.")
b.read("where_handled", "Where is the --app option / FLASK_APP handled to locate the application?",
    ["src/flask/cli.py"],
    "In flask/cli.py: the -A/--app option's callback _set_app stores the import path on ScriptInfo, ScriptInfo.load_app splits it into module and name, and locate_app imports the module then uses find_app_by_string or find_best_app.",
    "src/flask/cli.py:440-446 _set_app, :453-465 _app_option (-A/--app), :333-373 ScriptInfo.load_app, :241-264 locate_app, :120-197 find_app_by_string, :41-91 find_best_app.")
b.read("where_handled", "Where are .env and .flaskenv files loaded?",
    ["src/flask/cli.py", "src/flask/helpers.py"],
    "flask.cli.load_dotenv reads .flaskenv then .env (python-dotenv) and sets only variables not already in os.environ; it runs from the --env-file callback and from Flask.run, unless helpers.get_load_dotenv sees FLASK_SKIP_DOTENV.",
    "src/flask/cli.py:706-771 load_dotenv, :493-510 _env_file_callback; src/flask/helpers.py:36-48 get_load_dotenv (FLASK_SKIP_DOTENV); src/flask/app.py:623-624 Flask.run calls cli.load_dotenv().")
b.read("where_handled", "Where is MAX_CONTENT_LENGTH enforced for incoming requests?",
    ["src/flask/wrappers.py"],
    "Request.max_content_length in flask/wrappers.py returns a per-request override or current_app.config['MAX_CONTENT_LENGTH']; Werkzeug's request parsing then raises 413 RequestEntityTooLarge when the body exceeds it.",
    "src/flask/wrappers.py:59-90 Request.max_content_length property and setter (also max_form_memory_size :92-117 and max_form_parts :119-144 read MAX_FORM_MEMORY_SIZE/MAX_FORM_PARTS).")

# ---------------- behavioural
b.read("behavioural", "How does Flask push and pop the request context around a request?",
    ["src/flask/ctx.py", "src/flask/app.py"],
    "Flask.wsgi_app creates a RequestContext, pushes it (which pushes an AppContext if needed, sets the _cv_request context var, opens the session and matches the URL), dispatches, and pops it in a finally block; RequestContext.pop runs teardown_request functions, resets the context var and pops the app context.",
    "src/flask/app.py:1479-1527 wsgi_app (ctx.push / full_dispatch_request / ctx.pop(error)); src/flask/ctx.py:367-394 RequestContext.push, :396-431 RequestContext.pop, :251-272 AppContext.push/pop.")
b.read("behavioural", "How does `flask run` find the application object when I don't give an app name?",
    ["src/flask/cli.py"],
    "ScriptInfo.load_app imports wsgi.py or app.py; find_best_app then looks for an attribute named app or application, else the only Flask instance in the module, else calls a create_app or make_app factory without arguments, raising NoAppException otherwise.",
    "src/flask/cli.py:41-91 find_best_app, :333-373 ScriptInfo.load_app (tries 'wsgi.py' then 'app.py'), :241-264 locate_app, :37 NoAppException.")
b.read("behavioural", "How does MethodView dispatch a request to its get/post methods?",
    ["src/flask/views.py"],
    "MethodView.__init_subclass__ collects the HTTP methods the subclass defines into `methods`; dispatch_request looks up the method named after request.method.lower() (falling back to get for HEAD) and calls it through current_app.ensure_sync; View.as_view builds the view function that instantiates the class per request.",
    "src/flask/views.py:138-191 MethodView (__init_subclass__ :165-180, dispatch_request :182-191), :86-136 View.as_view.")
b.read("behavioural", "How does Flask serialize non-JSON types like tuples, bytes and datetimes in the session cookie?",
    ["src/flask/json/tag.py", "src/flask/sessions.py"],
    "The session serializer is a TaggedJSONSerializer: each value is checked against ordered JSONTag classes (TagDict, TagTuple, TagBytes, TagMarkup, TagUUID, TagDateTime...) and wrapped as a one-key dict like {' t': [...]} before json dumps; loads walks the data and untags it.",
    "src/flask/json/tag.py:60-216 JSONTag and tag classes, :219-327 TaggedJSONSerializer (register, tag, untag, _untag_scan, dumps, loads); src/flask/sessions.py:14 import and sessions.py:287 `session_json_serializer = TaggedJSONSerializer()`, used as SecureCookieSessionInterface.serializer (:314).")
b.read("behavioural", "How does Config.from_prefixed_env load nested settings from environment variables?",
    ["src/flask/config.py"],
    "It scans os.environ in sorted order for keys starting with FLASK_ (or a custom prefix), strips the prefix, tries json.loads on the value (keeping the string on failure), and splits keys on double underscores to set values in nested dicts, creating them as needed.",
    "src/flask/config.py:126-185 Config.from_prefixed_env.")
b.read("behavioural", "How does Flask turn a view's return value (string, dict or tuple) into a Response?",
    ["src/flask/app.py"],
    "Flask.make_response unpacks (body, status, headers) tuples, rejects None, wraps str/bytes/iterators in response_class, sends dicts and lists through self.json.response, coerces other WSGI responses with force_type, then applies the status and headers; finalize_request calls it after dispatch.",
    "src/flask/app.py:1129-1269 Flask.make_response, :922-951 finalize_request.")
b.read("behavioural", "What happens when a blueprint is registered on an app?",
    ["src/flask/sansio/blueprints.py", "src/flask/sansio/app.py"],
    "App.register_blueprint calls Blueprint.register, which checks the name is unique, records the blueprint in app.blueprints, builds a BlueprintSetupState, adds the static route, merges error handlers and request hooks into the app, replays every deferred function recorded by the blueprint's decorators, registers CLI commands and then registers nested blueprints with combined url_prefix/subdomain.",
    "src/flask/sansio/app.py:570-595 App.register_blueprint; src/flask/sansio/blueprints.py:273-377 Blueprint.register, :34-117 BlueprintSetupState, :224-244 record/record_once, :379-411 _merge_blueprint_funcs.")

# ---------------- unanswerable
b.read("unanswerable", "How does Flask handle WebSocket connections?", [],
    "Flask (a WSGI framework) contains no WebSocket support; the code has nothing to answer from, so the answer should say so.",
    "grep -rli websocket --include=*.py ~/.cache/strata-corpus/flask-3.1.2: no file.")
b.read("unanswerable", "Where is request rate limiting implemented?", [],
    "Nowhere: Flask has no rate limiter (that is the job of extensions such as Flask-Limiter, which are not in this repository).",
    "grep -rliE 'rate.?limit|ratelimit|throttl' --include=*.py ~/.cache/strata-corpus/flask-3.1.2: no file.")
b.read("unanswerable", "How does Flask validate JWT bearer tokens in the Authorization header?", [],
    "It does not: there is no JWT or bearer-token code in this repository.",
    "grep -rli jwt --include=*.py and grep -rli 'bearer' --include=*.py ~/.cache/strata-corpus/flask-3.1.2: no file.")
b.read("unanswerable", "Why did the Flask maintainers choose blinker for flask.signals instead of writing their own signal dispatcher?", [],
    "The code cannot tell: src/flask/signals.py just creates a blinker Namespace and the signals, with no comment on the reasoning; design rationale is not in the source.",
    "read src/flask/signals.py (lines 1-17: `from blinker import Namespace`, `_signals = Namespace()`, signal definitions) - no rationale; grep -rn blinker --include=*.py finds only signals.py:3.")
b.read("unanswerable", "How many Gunicorn workers does the flaskr tutorial app run with in production?", [],
    "Not in the code: examples/tutorial/flaskr has no deployment configuration, and no Python file mentions Gunicorn or a worker count.",
    "grep -rli gunicorn --include=*.py ~/.cache/strata-corpus/flask-3.1.2: no file; examples/tutorial/flaskr/__init__.py only builds the app (create_app).")
b.write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "flask.jsonl"))
