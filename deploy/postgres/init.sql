-- Run once by the postgres image when its data directory is created (docker-entrypoint-initdb.d).
-- The application's role and database, reached through Memogate; the same role is a console admin.
CREATE ROLE memogate LOGIN PASSWORD 'memogate' CREATEDB;
CREATE DATABASE app OWNER memogate;
-- The broker's own login: it reads pg_settings, pg_stat_activity, pg_stat_database and pg_stat_io.
CREATE ROLE memogate_monitor LOGIN PASSWORD 'memogate_monitor';
GRANT pg_monitor TO memogate_monitor;
