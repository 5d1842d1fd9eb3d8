# Memogate, the proxy alone (the benchmarks are not in the product jar), as docker-compose.yml runs it.
#   docker build -t memogate .
#   docker run -p 6432:6432 -v $PWD/memogate.yaml:/etc/memogate/memogate.yaml:ro memogate
# SIGHUP reloads the configuration: docker kill -s HUP <container>.

FROM eclipse-temurin:21-jdk AS build
WORKDIR /src
# Every module's pom: Maven reads the whole reactor even when it builds only proxy-core and what it needs.
COPY mvnw pom.xml ./
COPY .mvn .mvn
COPY calcite-estimator/pom.xml calcite-estimator/
COPY broker/pom.xml broker/
COPY broker-postgres/pom.xml broker-postgres/
COPY broker-mysql/pom.xml broker-mysql/
COPY broker-sqlserver/pom.xml broker-sqlserver/
COPY broker-redis/pom.xml broker-redis/
COPY proxy-core/pom.xml proxy-core/
COPY bench/pom.xml bench/
COPY testkit/pom.xml testkit/
COPY examples/testkit-example/pom.xml examples/testkit-example/
COPY calcite-estimator/src calcite-estimator/src
COPY broker/src broker/src
COPY broker-postgres/src broker-postgres/src
COPY broker-mysql/src broker-mysql/src
COPY broker-sqlserver/src broker-sqlserver/src
COPY broker-redis/src broker-redis/src
COPY proxy-core/src proxy-core/src
# Tests are compiled, not run: proxy-core's tests use broker-redis's and broker-mysql's test jars, which the reactor must build.
RUN ./mvnw -B -ntp -q -pl proxy-core -am package -DskipTests

FROM eclipse-temurin:21-jre
RUN useradd --system --uid 10001 --home-dir /opt/memogate memogate
COPY --from=build /src/proxy-core/target/memogate.jar /opt/memogate/memogate.jar
COPY deploy/memogate/memogate.yaml /etc/memogate/memogate.yaml
USER memogate
# 6432: clients and the admin console (database "memogate"); 9930: /metrics and /health.
EXPOSE 6432 9930
# Exec form: the JVM is PID 1 and receives SIGTERM (drain and stop) and SIGHUP (reload) itself.
ENTRYPOINT ["java", "--enable-native-access=ALL-UNNAMED", "-jar", "/opt/memogate/memogate.jar"]
CMD ["run", "--config", "/etc/memogate/memogate.yaml"]
