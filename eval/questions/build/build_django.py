"""Generator of eval/questions/django.jsonl: the question specs, references and provenance (see eval/README.md)."""
import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_common import Builder
R = os.path.join(os.environ.get("STRATA_CORPUS_CACHE", os.path.expanduser("~/.cache/strata-corpus")), "django-5.2.19")
b = Builder("django", "5.2.19", R, ["tests"], os.environ.get("GRIMP_PICKLE_DIR", "/tmp/xcheck") + "/django.grimp.pkl",
            "copy with __init__.py added to every folder holding .py files, packages django, docs, tests; 8613/8613 edges and all type_checking flags equal")

# ---------------- imports_of
b.structural("imports_of", "What does django/contrib/auth/middleware.py import?",
    {"op": "imports-of", "module": "django/contrib/auth/middleware.py"}, [],
    "Eight modules: django.conf, django.contrib.auth (the package), django.contrib.auth.backends, django.contrib.auth.views, django.core.exceptions, django.shortcuts, django.utils.deprecation and django.utils.functional.",
    "django/contrib/auth/middleware.py:7-15: `from django.conf import settings`, `from django.contrib import auth` and `from django.contrib.auth import REDIRECT_FIELD_NAME, load_backend` (both the auth package), `.backends import RemoteUserBackend`, `.views import redirect_to_login`, `django.core.exceptions`, `django.shortcuts`, `django.utils.deprecation`, `django.utils.functional`.")
b.structural("imports_of", "Which modules does django.db.migrations.autodetector depend on directly?",
    {"op": "imports-of", "module": "django.db.migrations.autodetector"}, [],
    "Nine: django.conf, django.db.models, django.db.migrations.operations (package) and operations.models, django.db.migrations.migration, .optimizer, .questioner, .utils, and django.utils.functional.",
    "django/db/migrations/autodetector.py:8-20: `from django.conf import settings`, `from django.db import models` (the django.db.models package), `from django.db.migrations import operations` (the operations package), `.migration import Migration`, `.operations.models import AlterModelOptions`, `.optimizer`, `.questioner`, `.utils`, `django.utils.functional import cached_property`.")
b.structural("imports_of", "What does the database session backend, django/contrib/sessions/backends/db.py, import?",
    {"op": "imports-of", "module": "django/contrib/sessions/backends/db.py"}, [],
    "Seven: sessions.backends.base, django.core.exceptions, django.db (package), django.db.transaction, django.utils.timezone, django.utils.functional, and django.contrib.sessions.models (imported lazily inside get_model_class).",
    "django/contrib/sessions/backends/db.py:5-9 module-level imports (`from django.db import DatabaseError, IntegrityError, router, transaction` gives django/db/__init__.py and the django/db/transaction.py submodule; `from django.utils import timezone` gives utils/timezone.py), :24 `from django.contrib.sessions.models import Session` inside a method.")
b.structural("imports_of", "List the modules imported by django/middleware/gzip.py.",
    {"op": "imports-of", "module": "django/middleware/gzip.py"}, [],
    "Four utility modules: django.utils.cache, django.utils.deprecation, django.utils.regex_helper and django.utils.text.",
    "django/middleware/gzip.py:1-4 (`patch_vary_headers`, `MiddlewareMixin`, `_lazy_re_compile`, `compress_sequence, compress_string`).")
b.structural("imports_of", "How many repository modules does django.db.models.sql.compiler import directly?",
    {"op": "imports-of", "module": "django.db.models.sql.compiler"}, ["number"],
    "15: django.core.exceptions, django.db, django.db.models.constants, .expressions, .fields (package) and .fields.composite, .functions, .lookups, .query_utils, .sql.constants, .sql.query, django.db.transaction, django.utils.functional, django.utils.hashable and django.utils.regex_helper.",
    "django/db/models/sql/compiler.py:7-28; note `from django.db.models.fields import AutoField, composite` (line 11) is two edges: to fields/__init__.py (AutoField) and to the composite submodule.")

# ---------------- imported_by
b.structural("imported_by", "Which modules import django/core/mail/backends/base.py?",
    {"op": "imported-by", "module": "django/core/mail/backends/base.py"}, [],
    "The four built-in email backends (console, dummy, locmem, smtp) and two test modules (tests/mail/custombackend.py, tests/logging_tests/logconfig.py), all for BaseEmailBackend.",
    "grep `mail.backends.base`: django/core/mail/backends/console.py:8, dummy.py:5, locmem.py:8, smtp.py:8, tests/mail/custombackend.py:3, tests/logging_tests/logconfig.py:4.")
b.structural("imported_by", "Who uses django.db.migrations.optimizer directly?",
    {"op": "imported-by", "module": "django.db.migrations.optimizer"}, [],
    "The autodetector, the makemigrations, optimizemigration and squashmigrations commands, and tests/migrations/test_base.py and test_optimizer.py (all import MigrationOptimizer).",
    "grep `migrations.optimizer`: django/db/migrations/autodetector.py:13, django/core/management/commands/makemigrations.py:15, optimizemigration.py:10, squashmigrations.py:11, tests/migrations/test_base.py:13, tests/migrations/test_optimizer.py:3.")
b.structural("imported_by", "Which files import django.utils.feedgenerator?",
    {"op": "imported-by", "module": "django.utils.feedgenerator"}, [],
    "django/contrib/syndication/views.py, django/contrib/gis/feeds.py and three tests: tests/syndication_tests/feeds.py, tests/syndication_tests/tests.py and tests/utils_tests/test_feedgenerator.py.",
    "grep `feedgenerator` in import lines: django/contrib/syndication/views.py:7 `from django.utils import feedgenerator`, django/contrib/gis/feeds.py:2, tests/syndication_tests/feeds.py:4, tests/syndication_tests/tests.py:12, tests/utils_tests/test_feedgenerator.py:5.")
b.structural("imported_by", "Which modules depend directly on django/contrib/sessions/backends/base.py?",
    {"op": "imported-by", "module": "django/contrib/sessions/backends/base.py"}, [],
    "Eight: the cache, db, file and signed_cookies session backends, the session middleware, and tests/sessions_tests/tests.py, tests/sessions_tests/no_clear_expired.py and tests/test_client_regress/session.py.",
    "grep `sessions.backends.base`: django/contrib/sessions/backends/cache.py:2, db.py:5, file.py:8, signed_cookies.py:1, django/contrib/sessions/middleware.py:5, tests/sessions_tests/tests.py:13, no_clear_expired.py:1, tests/test_client_regress/session.py:1 (cached_db.py imports backends.db, not base).")
b.structural("imported_by", "How many modules import django/core/management/utils.py directly?",
    {"op": "imported-by", "module": "django/core/management/utils.py"}, ["number"],
    "15: nine management commands (compilemessages, dumpdata, loaddata, makemessages, makemigrations, optimizemigration, squashmigrations, startproject, test), django/core/management/templates.py and five test modules.",
    "grep `management.utils`/`from ..utils import`: django/core/management/templates.py:14, commands/compilemessages.py:9, dumpdata.py:8, loaddata.py:16, makemessages.py:14, makemigrations.py:9, optimizemigration.py:6, squashmigrations.py:7, startproject.py:4, test.py:5, tests/check_framework/test_security.py:7, tests/i18n/test_compilation.py:11, tests/i18n/test_extraction.py:18, tests/i18n/tests.py:20, tests/user_commands/tests.py:16.")

# ---------------- impact
b.structural("impact", "What would be affected if I changed django/utils/lorem_ipsum.py?",
    {"op": "impact", "module": "django/utils/lorem_ipsum.py"}, [],
    "django/template/defaulttags.py (the {% lorem %} tag) imports it, django/templatetags/i18n.py imports defaulttags, and seven tests depend on those: test_lorem_ipsum, syntax_tests test_lorem, test_for, test_if, test_url, test_with and i18n/test_blocktranslate.",
    "grep: django/template/defaulttags.py:15 `from django.utils.lorem_ipsum import paragraphs, words`; django/templatetags/i18n.py:6 imports defaulttags; tests/utils_tests/test_lorem_ipsum.py:4, tests/template_tests/syntax_tests/test_lorem.py:3, test_for.py:2, test_if.py:2, test_url.py:2, test_with.py:2, i18n/test_blocktranslate.py:9. (The template engine loads defaulttags by dotted string, which is not an import statement.)")
b.structural("impact", "Which modules depend, directly or transitively, on django/db/migrations/serializer.py?",
    {"op": "impact", "module": "django/db/migrations/serializer.py"}, [],
    "18: migrations/writer.py (which it also imports back), contrib/postgres/serializers.py and apps.py, the makemigrations, optimizemigration and squashmigrations commands, a test makemigrations command override, and eleven test modules under tests/migrations and tests/postgres_tests.",
    "grep: django/db/migrations/writer.py imports `django.db.migrations.serializer`, django/contrib/postgres/serializers.py subclasses BaseSerializer, postgres/apps.py:6 imports MigrationWriter and :20 `from .serializers import RangeSerializer`; makemigrations.py, optimizemigration.py and squashmigrations.py import MigrationWriter.")
b.structural("impact", "If I edit django/contrib/sessions/exceptions.py, what could break?",
    {"op": "impact", "module": "django/contrib/sessions/exceptions.py"}, [],
    "The file session backend and the session middleware import it, and six test modules depend on those (admin_checks, auth_tests test_checks/test_decorators/test_views, deprecation test_middleware_mixin, sessions_tests).",
    "grep `sessions.exceptions`: django/contrib/sessions/backends/file.py and django/contrib/sessions/middleware.py (SessionInterrupted, InvalidSessionKey); the listed tests import SessionMiddleware or the file backend.")
b.structural("impact", "What is the transitive impact of changing django/contrib/postgres/signals.py?",
    {"op": "impact", "module": "django/contrib/postgres/signals.py"}, [],
    "postgres/apps.py and postgres/operations.py import it, and seven test modules depend on them: four 0001_setup_extensions migrations (db_functions, gis_migrations, rasterapp, postgres_tests) and postgres_tests test_apps, test_operations and test_signals.",
    "grep `postgres.signals`/`from .signals`: django/contrib/postgres/apps.py, operations.py, tests/postgres_tests/test_signals.py; the setup_extensions migrations import django.contrib.postgres.operations (e.g. tests/postgres_tests/migrations/0001_setup_extensions.py).")

# ---------------- cycles
b.structural("cycles", "How many modules are in the largest import cycle in Django?",
    {"op": "cycles", "select": "largest"}, ["number"],
    "166 modules of the django package form one strongly connected component (58 under django/db, 36 under django/core, 24 under django/utils, plus template, forms, urls, http, views, apps, conf and others).",
    "Spot-checked a loop: django/db/models/__init__.py:59 `from django.db.models.base import DEFERRED, Model` and django/db/models/base.py:30 `from django.db.models import NOT_PROVIDED, ...` import each other; TYPE_CHECKING plays no part (django has no TYPE_CHECKING imports, tests have 3 edges).")
b.structural("cycles", "Which modules form the import cycle that includes django/db/backends/oracle/base.py?",
    {"op": "cycle-of", "module": "django/db/backends/oracle/base.py"}, ["yes_no", "number"],
    "A 4-module cycle: oracle/base.py, oracle/client.py, oracle/operations.py and oracle/utils.py.",
    "django/db/backends/oracle/base.py:62-68 `from .client/.operations/.utils import ...`; operations.py:24 `from .base import Database`; utils.py:4 `from .base import Database`; client.py:12 `from django.db.backends.oracle.utils import dsn` inside a method.")
b.structural("cycles", "Is django/contrib/sessions/backends/db.py part of a circular import?",
    {"op": "cycle-of", "module": "django/contrib/sessions/backends/db.py"}, ["yes_no"],
    "Yes, a two-module cycle with django/contrib/sessions/models.py; both sides import each other inside functions.",
    "django/contrib/sessions/backends/db.py:24 `from django.contrib.sessions.models import Session` (in SessionStore.get_model_class); django/contrib/sessions/models.py:30 `from django.contrib.sessions.backends.db import SessionStore` (in Session.get_session_store_class).")
b.structural("cycles", "Is django.middleware.gzip involved in an import cycle?",
    {"op": "cycle-of", "module": "django.middleware.gzip"}, ["yes_no"],
    "No: gzip.py imports only four django.utils modules (cache, deprecation, regex_helper, text), none of which leads back to it; it is imported by django/views/decorators/gzip.py and by tests.",
    "django/middleware/gzip.py:1-4; grep `middleware.gzip` in import lines: django/views/decorators/gzip.py:1, tests/middleware/tests.py:23, tests/deprecation/test_middleware_mixin.py:26; django.utils.cache/deprecation/regex_helper/text do not import middleware or views modules.")

# ---------------- central
b.structural("central", "Which modules are imported by the most other modules?",
    {"op": "most-imported", "top": 5}, ["ranking", "ranking_k"],
    "django/test/__init__.py (767 importers, nearly all tests), django/db/models/__init__.py (614), django/core/exceptions.py (353), django/db/__init__.py (307) and django/conf/__init__.py (232).",
    "Counted over the whole repository including tests/; `from django.test import ...` and `from django.db import models` are the most common import lines in tests/.")
b.structural("central", "Inside the django package itself, not counting tests, which five modules have the most direct importers?",
    {"op": "most-imported", "top": 5, "within": "django/"}, ["ranking", "ranking_k"],
    "django/conf/__init__.py (163 importers), django/core/exceptions.py (160), django/utils/functional.py (114), django/db/models/__init__.py (109) and django/utils/translation/__init__.py (99).",
    "`from django.conf import settings`, `from django.core.exceptions import ...`, `from django.utils.functional import cached_property` and `from django.utils.translation import gettext_lazy as _` recur across django/.")
b.structural("central", "What is the most imported module in the repository, and how many modules import it?",
    {"op": "most-imported", "top": 1}, ["ranking", "ranking_k", "number"],
    "django/test/__init__.py (the django.test package) with 767 direct importers.",
    "grep -c of `from django.test import` lines across tests/ (TestCase, SimpleTestCase, override_settings...).")

# ---------------- defined_in
b.structural("defined_in", "Where is the QuerySet class defined?",
    {"op": "defined-in", "name": "QuerySet"}, [],
    "django/db/models/query.py.",
    "django/db/models/query.py:279 `class QuerySet(AltersData):`.")
b.structural("defined_in", "Which modules define a function called slugify?",
    {"op": "defined-in", "name": "slugify"}, [],
    "Two: django/utils/text.py (the implementation) and django/template/defaultfilters.py (the |slugify template filter, which calls the utils version).",
    "django/utils/text.py:465 `def slugify(value, allow_unicode=False):`; django/template/defaultfilters.py:267 `def slugify(value):` (decorated as a filter).")
b.structural("defined_in", "Where are the SessionStore classes defined?",
    {"op": "defined-in", "name": "SessionStore"}, [],
    "Each session backend defines one: django/contrib/sessions/backends/cache.py, cached_db.py, db.py, file.py and signed_cookies.py; tests define three more in tests/sessions_tests/models.py, tests/sessions_tests/no_clear_expired.py and tests/test_client_regress/session.py.",
    "grep `^class SessionStore`: backends/file.py:18, signed_cookies.py:5, cache.py:8, db.py:12, cached_db.py:16, tests/sessions_tests/no_clear_expired.py:4, tests/sessions_tests/models.py:24, tests/test_client_regress/session.py:4.")
b.structural("defined_in", "In which file is Model.save implemented?",
    {"op": "defined-in", "name": "Model.save"}, [],
    "django/db/models/base.py, method Model.save (which calls save_base).",
    "django/db/models/base.py:461 `class Model(AltersData, metaclass=ModelBase):`, :830 `def save(`.")

# ---------------- exports
b.structural("exports", "What does django.views.generic export?",
    {"op": "exports", "module": "django.views.generic"}, ["number"],
    "Its __all__ lists 17 names: View, TemplateView, RedirectView, ArchiveIndexView, YearArchiveView, MonthArchiveView, WeekArchiveView, DayArchiveView, TodayArchiveView, DateDetailView, DetailView, FormView, CreateView, UpdateView, DeleteView, ListView and GenericViewError.",
    "django/views/generic/__init__.py:1-13 imports from .base/.dates/.detail/.edit/.list, :15-33 `__all__ = [...]`, then `class GenericViewError(Exception)`.")
b.structural("exports", "What does django/db/models/enums.py put in __all__?",
    {"op": "exports", "module": "django/db/models/enums.py"}, [],
    "Choices, IntegerChoices and TextChoices.",
    "django/db/models/enums.py:26 `__all__ = [\"Choices\", \"IntegerChoices\", \"TextChoices\"]`.")

# ---------------- where_handled
b.read("where_handled", "Where are CSRF verification failures handled?",
    ["django/middleware/csrf.py", "django/views/csrf.py"],
    "CsrfViewMiddleware.process_view checks Origin/Referer and the token and calls _reject, which calls the view named by settings.CSRF_FAILURE_VIEW (via _get_failure_view) and logs the 403; the default view is django.views.csrf.csrf_failure.",
    "django/middleware/csrf.py:50-52 _get_failure_view, :209-219 _reject, :349-399 _check_token, :414-470 process_view; django/views/csrf.py:22 csrf_failure.")
b.read("where_handled", "Where is the ALLOWED_HOSTS check handled?",
    ["django/http/request.py", "django/utils/http.py"],
    "HttpRequest.get_host validates the Host header against settings.ALLOWED_HOSTS with validate_host (which uses django.utils.http.is_same_domain for '.example.com' patterns) and raises DisallowedHost otherwise; with DEBUG and an empty list, localhost variants are allowed.",
    "django/http/request.py:183-203 HttpRequest.get_host, :842-858 validate_host; django/utils/http.py:226 is_same_domain.")
b.read("where_handled", "Where are exceptions like Http404 or PermissionDenied raised in a view turned into error responses?",
    ["django/core/handlers/exception.py", "django/urls/resolvers.py", "django/views/defaults.py"],
    "convert_exception_to_response wraps every middleware and view; response_for_exception maps Http404, PermissionDenied, MultiPartParserError, BadRequest and SuspiciousOperation to 404/403/400 via get_exception_response, which asks the URL resolver's resolve_error_handler for handler404/403/400/500 (defaults in django.views.defaults); anything else goes to handle_uncaught_exception (500).",
    "django/core/handlers/exception.py:24-60 convert_exception_to_response, :63-159 response_for_exception, :162-170 get_exception_response, :173- handle_uncaught_exception; django/urls/resolvers.py:731 URLResolver.resolve_error_handler; django/views/defaults.py:35 page_not_found, :83 server_error, :103 bad_request, :126 permission_denied.")
b.read("where_handled", "Where is the DATA_UPLOAD_MAX_MEMORY_SIZE limit enforced?",
    ["django/http/request.py", "django/http/multipartparser.py"],
    "HttpRequest.body reads at most DATA_UPLOAD_MAX_MEMORY_SIZE + 1 bytes and _check_data_too_big raises RequestDataTooBig; for multipart forms MultiPartParser.parse counts the bytes of non-file fields and raises RequestDataTooBig too (uploaded files are not counted).",
    "django/http/request.py:377-417 HttpRequest.body, :419-425 _check_data_too_big; django/http/multipartparser.py:117 MultiPartParser.parse, :222-249 the DATA_UPLOAD_MAX_MEMORY_SIZE checks.")
b.read("where_handled", "Where is the APPEND_SLASH redirect handled?",
    ["django/middleware/common.py"],
    "CommonMiddleware: process_response, on a 404, calls should_redirect_with_slash (APPEND_SLASH set, path lacks a slash, and path + '/' resolves to a view that allows it) and redirects to get_full_path_with_slash; process_request also handles PREPEND_WWW.",
    "django/middleware/common.py:13 CommonMiddleware, :34-60 process_request, :62-74 should_redirect_with_slash, :76-98 get_full_path_with_slash, :100-115 process_response.")

# ---------------- behavioural
b.read("behavioural", "How does Django hash and verify user passwords?",
    ["django/contrib/auth/hashers.py"],
    "make_password picks the hasher (first of PASSWORD_HASHERS by default, PBKDF2 with SHA256) and encodes password+salt as 'algorithm$iterations$salt$hash'; check_password/verify_password identify the hasher from the encoded prefix, verify, and report whether the hash must be upgraded, running a dummy hash to equalise timing when the password is unusable.",
    "django/contrib/auth/hashers.py:36-69 verify_password, :72-83 check_password, :94-114 make_password, :142-165 get_hasher, :167-186 identify_hasher, :204 BasePasswordHasher, :311-364 PBKDF2PasswordHasher (iterations = 1_000_000 at :321).")
b.read("behavioural", "How does transaction.atomic() use savepoints when blocks are nested?",
    ["django/db/transaction.py", "django/db/backends/base/base.py"],
    "atomic() returns an Atomic context decorator; the outermost __enter__ turns off autocommit to start a transaction, nested ones create a savepoint via connection.savepoint() and push its id on connection.savepoint_ids; __exit__ pops it and releases or rolls back to the savepoint, or commits/rolls back the whole transaction at the outermost level.",
    "django/db/transaction.py:142-314 Atomic (__enter__ :182-222, __exit__ :224-314), :316-323 atomic(); django/db/backends/base/base.py:75-77 savepoint_ids/atomic_blocks, :384-421 savepoint/savepoint_rollback.")
b.read("behavioural", "How does Django's cached_property decorator work?",
    ["django/utils/functional.py"],
    "cached_property is a non-data descriptor: __set_name__ records the attribute name, and the first __get__ calls the function and stores the result in instance.__dict__ under that name, so later lookups bypass the descriptor; deleting the attribute resets it.",
    "django/utils/functional.py:7-48 class cached_property (__init__ :25, __set_name__ :29-37, __get__ :39-48).")
b.read("behavioural", "How do TimestampSigner signatures expire?",
    ["django/core/signing.py"],
    "TimestampSigner.sign appends a base62 timestamp to the value before Signer.sign adds an HMAC (base64_hmac over salt+'signer' with SECRET_KEY); unsign verifies the HMAC against SECRET_KEY and the fallbacks, splits off the timestamp and raises SignatureExpired when it is older than max_age.",
    "django/core/signing.py:201-276 Signer (sign :227, unsign :230-237), :278-300 TimestampSigner (timestamp, sign, unsign with max_age), :98 base64_hmac, :64 b62_encode, :58 SignatureExpired.")
b.read("behavioural", "How does Django find and load a template by name?",
    ["django/template/loader.py", "django/template/utils.py"],
    "loader.get_template asks each configured engine in turn (engines.all(), built by EngineHandler from settings.TEMPLATES) for the template and collects TemplateDoesNotExist errors to re-raise as one; select_template does the same over a list of names and render_to_string renders the result.",
    "django/template/loader.py:5-19 get_template, :22-49 select_template, :52-62 render_to_string, :65-66 _engine_list; django/template/utils.py:16-96 EngineHandler (templates :26-65, __getitem__ :67-88).")
b.read("behavioural", "How does makemigrations detect what changed in my models?",
    ["django/db/migrations/autodetector.py", "django/core/management/commands/makemigrations.py", "django/db/migrations/state.py"],
    "makemigrations builds the old ProjectState from the migration graph (loader.project_state()) and the new one from the current apps (ProjectState.from_apps) and hands both to MigrationAutodetector.changes, whose _detect_changes diffs models and fields into operations, then arranges them into numbered migrations per app and optimizes them.",
    "django/core/management/commands/makemigrations.py:106 handle, :212-215 MigrationAutodetector(loader.project_state(), ProjectState.from_apps(apps), ...), :236 autodetector.changes(...); django/db/migrations/autodetector.py:61 changes, :125 _detect_changes, :635 generate_created_models, :1872 arrange_for_graph; django/db/migrations/state.py:592 ProjectState.from_apps.")
b.read("behavioural", "What does Paginator do with an invalid or out-of-range page number?",
    ["django/core/paginator.py"],
    "Paginator.validate_number raises PageNotAnInteger for non-integers and EmptyPage for numbers below 1 or above num_pages; page() propagates these, while get_page() catches them and returns page 1 or the last page instead.",
    "django/core/paginator.py:60-72 validate_number, :74-85 get_page, :87-94 page, :15-24 InvalidPage/PageNotAnInteger/EmptyPage.")

# ---------------- unanswerable
b.read("unanswerable", "How does Django resolve GraphQL queries?", [],
    "Django has no GraphQL support in this repository (that comes from third-party packages such as graphene-django); nothing in the code answers it.",
    "grep -rli graphql ~/.cache/strata-corpus/django-5.2.19 (every file, code and docs): no match.")
b.read("unanswerable", "Where does Django publish model change events to Kafka?", [],
    "Nowhere: there is no Kafka integration in Django; model signals (post_save etc.) exist but nothing sends them to Kafka.",
    "grep -rli kafka ~/.cache/strata-corpus/django-5.2.19: no match.")
b.read("unanswerable", "How does Django validate JWT bearer tokens?", [],
    "It does not: Django's auth uses sessions (and RemoteUserMiddleware for external auth); there is no JWT code.",
    "grep -rli jwt ~/.cache/strata-corpus/django-5.2.19 (code and docs): no match; grep -rni 'bearer' --include=*.py django/: no match.")
b.read("unanswerable", "Why does Django ship its own cached_property in django.utils.functional instead of using functools.cached_property?", [],
    "The code does not say: django/utils/functional.py defines cached_property with a docstring about what it does, not why it is kept instead of the stdlib version; the rationale is not in the repository.",
    "read django/utils/functional.py:7-48 (docstring: 'Decorator that converts a method with a single self argument into a property cached on the instance'); grep -rn 'functools.cached_property' in django/ and docs/: no match.")
b.read("unanswerable", "Which PostgreSQL server version does djangoproject.com run django.contrib.postgres against in production?", [],
    "Not in the code: the repository holds the framework, not the djangoproject.com deployment; django/db/backends/postgresql/features.py only states the minimum supported version, which is not the production version asked about.",
    "grep -rn djangoproject.com --include=*.py django/: 101 hits, all docs./code./www.djangoproject.com links in messages and comments plus one GeoIP2 docstring example (django/contrib/gis/geoip2.py:206), no deployment settings; django/db/backends/postgresql/features.py:10 `minimum_database_version = (14,)` is a support floor, not a deployment fact.")
b.write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "django.jsonl"))
