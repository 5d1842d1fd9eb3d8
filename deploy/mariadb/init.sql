-- Run once by the mariadb image when its data directory is created (docker-entrypoint-initdb.d). The image
-- creates the application's user and database (MARIADB_USER, MARIADB_DATABASE) from docker-compose.yml.
-- The broker's own login: PROCESS shows every connection's memory and stage, performance_schema its arenas.
CREATE USER memogate_monitor@'%' IDENTIFIED BY 'memogate_monitor';
GRANT PROCESS ON *.* TO memogate_monitor@'%';
GRANT SELECT ON performance_schema.* TO memogate_monitor@'%';
