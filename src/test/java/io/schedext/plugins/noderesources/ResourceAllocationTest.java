package io.schedext.plugins.noderesources;

import static org.assertj.core.api.Assertions.assertThat;

import io.schedext.framework.PodInfo;
import io.schedext.testing.MakePod;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's resource_allocation_test.go TestResourceAllocationScorerCalculateRequests (non-zero
 * requests).
 */
class ResourceAllocationTest {

  private static final long ONE_MI = 1024 * 1024;
  private static final long DEFAULT_CPU = 100;
  private static final long DEFAULT_MEMORY = 200 * ONE_MI;

  record Case(String name, PodInfo pod, long wantMilliCpu, long wantMemory) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    Map<String, String> oneCpuOneMi = Map.of("cpu", "1", "memory", "1Mi");
    return Stream.of(
        new Case(
            "overhead alone counts",
            MakePod.pod().name("p").overhead(oneCpuOneMi).info(),
            1000,
            ONE_MI),
        new Case(
            "a container without requests counts the defaults",
            MakePod.pod().name("p").req(Map.of()).info(),
            DEFAULT_CPU,
            DEFAULT_MEMORY),
        new Case(
            "each container without requests counts the defaults once",
            MakePod.pod().name("p").req(Map.of()).req(Map.of()).info(),
            2 * DEFAULT_CPU,
            2 * DEFAULT_MEMORY),
        new Case(
            "a container with requests plus one without",
            MakePod.pod().name("p").req(oneCpuOneMi).req(Map.of()).info(),
            1000 + DEFAULT_CPU,
            ONE_MI + DEFAULT_MEMORY),
        new Case(
            "containers plus overhead",
            MakePod.pod().name("p").req(oneCpuOneMi).req(Map.of()).overhead(oneCpuOneMi).info(),
            2000 + DEFAULT_CPU,
            2 * ONE_MI + DEFAULT_MEMORY),
        new Case(
            "an init container larger than the containers, plus overhead",
            MakePod.pod()
                .name("p")
                .initReq(Map.of("cpu", "3"))
                .req(oneCpuOneMi)
                .req(Map.of())
                .overhead(oneCpuOneMi)
                .info(),
            4000,
            2 * ONE_MI + DEFAULT_MEMORY),
        new Case(
            "a request-less init container counts the defaults against small containers",
            MakePod.pod()
                .name("p")
                .initReq(Map.of())
                .initReq(Map.of("cpu", "1m", "memory", "1"))
                .req(Map.of("cpu", "3m", "memory", "3"))
                .info(),
            DEFAULT_CPU,
            DEFAULT_MEMORY),
        new Case(
            "a request-less container adds the defaults to the small ones",
            MakePod.pod()
                .name("p")
                .initReq(Map.of())
                .initReq(Map.of("cpu", "1m", "memory", "1"))
                .req(Map.of("cpu", "3m", "memory", "3"))
                .req(Map.of())
                .info(),
            3 + DEFAULT_CPU,
            3 + DEFAULT_MEMORY),
        new Case(
            "an explicit zero request stays zero",
            MakePod.pod().name("p").req(Map.of("cpu", "0", "memory", "0")).info(),
            0,
            0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void nonZeroPodRequests(Case c) {
    ResourceAllocation resources = new ResourceAllocation(ResourceSpec.DEFAULT_RESOURCES, false);
    assertThat(resources.podRequests(c.pod())).containsExactly(c.wantMilliCpu(), c.wantMemory());
  }
}
