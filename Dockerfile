# syntax=docker/dockerfile:1
# Build: docker build -t scheduler-extender .
# Run:   docker run -p 8888:8888 -e SERVER_ADDRESS=0.0.0.0 scheduler-extender
#        (without TLS and client certificates the service listens on loopback only, since bind can place any pod;
#        see docs/configuration.md "TLS and access")

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml .
RUN mvn -B -q dependency:go-offline
COPY src ./src
RUN mvn -B -q package -DskipTests \
 && java -Djarmode=tools -jar target/scheduler-extender.jar extract --layers --launcher --destination /layers

FROM eclipse-temurin:17-jre
RUN groupadd --system --gid 10001 extender \
 && useradd --system --uid 10001 --gid extender --home-dir /app --shell /usr/sbin/nologin extender
WORKDIR /app
# Layers from least to most often changed, so a code change rebuilds only the last one.
COPY --from=build /layers/dependencies/ ./
COPY --from=build /layers/spring-boot-loader/ ./
COPY --from=build /layers/snapshot-dependencies/ ./
COPY --from=build /layers/application/ ./
# Plugin jars of your own go here (mount a volume or build FROM this image); see docs/examples/custom-plugin.
RUN mkdir /app/plugins
USER 10001:10001
EXPOSE 8888
# The inlining options keep the optimising compiler from inlining as deeply as the JVM's defaults: it then compiles
# the request path and the watch's decoders for about half the CPU, and the code runs as fast (docs/configuration.md,
# "JVM options"). The thread-priority options let the API client's watch threads run at nice 10, so scheduling calls
# get the CPUs first during bursts of watch events (io.schedext.cluster.EventThreads). The JVM warns that it may lack
# the permission to raise priorities; nothing here raises one. The parallel collector and a first metaspace threshold
# above what the service loads cost less CPU per scheduled pod and a shorter start than G1, for a stop of ~0.25 s at
# each full collection. Transparent huge pages (where the host offers them, as its "madvise" or "always" mode does) cut
# the CPU of the per-node loops, which miss the TLB on nearly every node (docs/configuration.md, "JVM options").
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError -XX:+UseParallelGC -XX:MetaspaceSize=128m -XX:+UseTransparentHugePages -XX:MaxInlineLevel=6 -XX:InlineSmallCode=500 -XX:ThreadPriorityPolicy=1 -XX:JavaPriority1_To_OSPriority=10 -XX:JavaPriority6_To_OSPriority=0 -XX:JavaPriority7_To_OSPriority=0 -XX:JavaPriority8_To_OSPriority=0 -XX:JavaPriority9_To_OSPriority=0 -XX:JavaPriority10_To_OSPriority=0"
# PropertiesLauncher adds every jar under loader.path to the classpath.
ENTRYPOINT ["java", "-Dloader.path=/app/plugins", "org.springframework.boot.loader.launch.PropertiesLauncher"]
