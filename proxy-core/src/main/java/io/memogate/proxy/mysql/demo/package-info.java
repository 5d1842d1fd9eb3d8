/** The demo warehouse on a private MariaDB, for {@code bin/memogate demo --server mariadb} and the MariaDB storm. */
package io.memogate.proxy.mysql.demo;
