package io.memogate.proxy.admission;

/**
 * Settings a server gives a session at login beyond its server-wide ones, read with a database's catalog
 * (PostgreSQL: ALTER ROLE / ALTER DATABASE ... SET). Opaque to the admission, which only carries them from
 * the catalog read to the session's settings: each dialect's session settings read their own kind.
 */
public interface LoginSettings {

    /** None read (yet, or ever for a server that has none): sessions start from the server-wide settings. */
    LoginSettings NONE = new LoginSettings() {
        @Override
        public String toString() {
            return "LoginSettings.NONE";
        }
    };
}
