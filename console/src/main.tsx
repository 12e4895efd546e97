// The console's entry: the session (log in, log out, back to the login page on any 401), the
// signed-in shell (navigation, the needs-a-human count, the live indicator) and the pages.
import "./styles.css";
import { render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, type Session, setCsrfToken, setUnauthorizedHandler, type Tenant } from "./api";
import { Campaigns } from "./campaigns";
import { Dashboard } from "./dashboard";
import { Inbox } from "./inbox";
import { hrefOf, navigate, type Route, readStored, useRoute, writeStored } from "./lib";
import { connectLive, disconnectLive, useDebounced, useLiveEvents, useLiveState } from "./live";
import { Simulator } from "./simulator";
import { AppContext, type AppContextValue, ErrorAlert, Spinner } from "./ui";

function Login(props: { onLogin: (session: Session) => void }) {
  const [email, setEmail] = useState(() => readStored("ss.email") ?? "");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [waitUntil, setWaitUntil] = useState(0);
  const [now, setNow] = useState(Date.now());
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    (email === "" ? emailRef : passwordRef).current?.focus();
  }, []);
  useEffect(() => {
    if (waitUntil <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waitUntil]);
  const waiting = Math.max(0, Math.ceil((waitUntil - now) / 1000));

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const session = await api.login(email.trim(), password);
      writeStored("ss.email", email.trim());
      props.onLogin(session);
    } catch (e) {
      setError(e);
      if (e instanceof ApiError && e.retryAfterSeconds !== undefined) {
        setWaitUntil(Date.now() + e.retryAfterSeconds * 1000);
        setNow(Date.now());
      }
      setPassword("");
      passwordRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="login" id="main">
      <form class="login-card" onSubmit={submit}>
        <div class="brand brand-large">
          <span class="logo" aria-hidden="true">
            ss
          </span>
          <span>sharpsharp</span>
        </div>
        <h1>Log in to the console</h1>
        <ErrorAlert error={error} />
        {waiting > 0 && <p class="muted">You can try again in {waiting} s.</p>}
        <label class="field">
          <span class="field-label">Email</span>
          <input
            ref={emailRef}
            type="email"
            autoComplete="username"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </label>
        <label class="field">
          <span class="field-label">Password</span>
          <input
            ref={passwordRef}
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <button type="submit" class="button button-primary button-block" disabled={busy || waiting > 0}>
          {busy ? "Logging in…" : "Log in"}
        </button>
      </form>
    </main>
  );
}

function LiveIndicator() {
  const state = useLiveState();
  const label = state === "live" ? "Live" : state === "connecting" ? "Connecting" : "Reconnecting";
  return (
    <span class={`live live-${state}`} role="status" title={`Live updates: ${label.toLowerCase()}`}>
      <span class="live-dot" aria-hidden="true" />
      <span class="live-text">{label}</span>
    </span>
  );
}

/** How many conversations need a human (the needs_human view's first page: "50+" past it). */
function useNeedsHuman(tenant: string, phoneNumberId: string): string {
  const [count, setCount] = useState("");
  const load = async () => {
    try {
      const page = await api.conversations({ tenant, phoneNumberId, view: "needs_human", limit: 50 });
      setCount(page.items.length === 0 ? "" : `${page.items.length}${page.next !== undefined ? "+" : ""}`);
    } catch {
      // The count is a hint; the inbox shows errors.
    }
  };
  const refresh = useDebounced(() => void load(), 1000);
  useLiveEvents(() => refresh());
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), 60_000);
    return () => clearInterval(timer);
  }, [tenant, phoneNumberId]);
  return count;
}

const NAV: { page: Route["page"]; label: string }[] = [
  { page: "inbox", label: "Inbox" },
  { page: "simulator", label: "Simulator" },
  { page: "dashboard", label: "Dashboard" },
  { page: "campaigns", label: "Campaigns" },
];

function Shell(props: { session: Session; onLogout: () => void }) {
  const route = useRoute();
  const [tenants, setTenants] = useState<Tenant[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [scope, setScope] = useState(() => ({
    tenant: readStored("ss.tenant") ?? "",
    phoneNumberId: readStored("ss.number") ?? "",
  }));

  useEffect(() => {
    api
      .tenants()
      .then((page) => {
        setTenants(page.items);
        // A remembered tenant I no longer have: back to all.
        if (scope.tenant !== "" && !page.items.some((t) => t.id === scope.tenant)) {
          setScope({ tenant: "", phoneNumberId: "" });
        }
      })
      .catch(setError);
  }, []);
  useEffect(() => {
    connectLive(scope.tenant === "" ? undefined : scope.tenant);
    return disconnectLive;
  }, [scope.tenant]);
  useEffect(() => {
    if (route.page === "login") navigate({ page: "inbox" });
  }, [route.page]);

  const needsHuman = useNeedsHuman(scope.tenant, scope.phoneNumberId);
  const logout = async () => {
    try {
      await api.logout();
    } catch {
      // Logged out or not, the page goes back to the login.
    }
    props.onLogout();
  };

  const value: AppContextValue | undefined =
    tenants === undefined
      ? undefined
      : {
          operator: props.session.operator,
          tenants,
          tenant: scope.tenant,
          phoneNumberId: scope.phoneNumberId,
          setScope(tenant, phoneNumberId) {
            setScope({ tenant, phoneNumberId });
            writeStored("ss.tenant", tenant);
            writeStored("ss.number", phoneNumberId);
          },
        };

  return (
    <div class={`shell page-${route.page}`}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href={hrefOf({ page: "inbox" })} aria-label="sharpsharp console, inbox">
          <span class="logo" aria-hidden="true">
            ss
          </span>
          <span class="brand-text">sharpsharp</span>
        </a>
        <nav class="nav" aria-label="Main">
          {NAV.map((item) => (
            <a
              key={item.page}
              class="nav-link"
              href={hrefOf({ page: item.page } as Route)}
              aria-current={route.page === item.page ? "page" : undefined}
            >
              {item.label}
              {item.page === "inbox" && needsHuman !== "" && (
                <span class="nav-count" title="Conversations that need a human">
                  <span class="sr-only">, </span>
                  {needsHuman}
                  <span class="sr-only"> need a human</span>
                </span>
              )}
            </a>
          ))}
        </nav>
        <LiveIndicator />
        <span class="who" title={props.session.operator.email}>
          {props.session.operator.name}
        </span>
        <button type="button" class="button button-quiet button-small" onClick={logout}>
          Log out
        </button>
      </header>
      <main id="main" class="main" tabIndex={-1}>
        {value === undefined ? (
          error === undefined ? (
            <Spinner />
          ) : (
            <div class="page">
              <ErrorAlert error={error} />
            </div>
          )
        ) : (
          <AppContext.Provider value={value}>
            {route.page === "simulator" ? (
              <Simulator />
            ) : route.page === "dashboard" ? (
              <Dashboard />
            ) : route.page === "campaigns" ? (
              <Campaigns tenant={route.tenant} id={route.id} />
            ) : (
              <Inbox openKey={route.page === "inbox" ? route.key : undefined} />
            )}
          </AppContext.Provider>
        )}
      </main>
    </div>
  );
}

function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [error, setError] = useState<unknown>();

  const signIn = (next: Session) => {
    setCsrfToken(next.csrfToken);
    setSession(next);
    if (location.hash === "" || location.hash.startsWith("#/login")) {
      // Back where the 401 found me, else the inbox.
      const back = sessionStorage.getItem("ss.back");
      sessionStorage.removeItem("ss.back");
      if (back?.startsWith("#/") && !back.startsWith("#/login")) location.hash = back;
      else navigate({ page: "inbox" });
    }
  };
  const signOut = () => {
    setCsrfToken(undefined);
    disconnectLive();
    setSession(null);
    if (!location.hash.startsWith("#/login")) {
      if (location.hash.startsWith("#/")) sessionStorage.setItem("ss.back", location.hash);
      navigate({ page: "login" });
    }
  };

  useEffect(() => {
    setUnauthorizedHandler(signOut);
    api
      .session()
      .then((s) => (s === undefined ? signOut() : signIn(s)))
      .catch((e) => {
        setError(e);
        setSession(null);
      });
  }, []);

  if (session === undefined) return <Spinner label="Opening the console…" />;
  if (session === null) {
    return (
      <>
        {error !== undefined && <ErrorAlert error={error} onDismiss={() => setError(undefined)} />}
        <Login onLogin={signIn} />
      </>
    );
  }
  return <Shell session={session} onLogout={signOut} />;
}

const root = document.getElementById("app");
if (root !== null) render(<App />, root);
