package io.schedext.plugins.dynamicresources.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The selector environment, with the cases of upstream's {@code dynamic-resource-allocation/cel}
 * compile test that apply to 1.34's default gates (the consumable-capacity ones, whose {@code
 * allowMultipleAllocations} field the gate hides, are the "unknown field" case here), in our own
 * words.
 */
class DeviceSelectorsTest {

  record Case(
      String name,
      String expression,
      String driver,
      Map<String, DeviceAttribute> attributes,
      Map<String, DeviceCapacity> capacity,
      String compileError,
      String matchError,
      boolean match) {

    @Override
    public String toString() {
      return name;
    }
  }

  static Case matches(String name, String expr) {
    return new Case(name, expr, "", Map.of(), Map.of(), null, null, true);
  }

  static Case on(
      Case c, String driver, Map<String, DeviceAttribute> a, Map<String, DeviceCapacity> q) {
    return new Case(c.name, c.expression, driver, a, q, c.compileError, c.matchError, c.match);
  }

  static Case doesNotMatch(String name, String expr) {
    return new Case(name, expr, "", Map.of(), Map.of(), null, null, false);
  }

  static Case compileError(String name, String expr, String error) {
    return new Case(name, expr, "", Map.of(), Map.of(), error, null, false);
  }

  static Case matchError(String name, String expr, String error) {
    return new Case(name, expr, "", Map.of(), Map.of(), null, error, false);
  }

  static DeviceAttribute bool(boolean b) {
    return new DeviceAttributeBuilder().withBool(b).build();
  }

  static DeviceAttribute integer(long i) {
    return new DeviceAttributeBuilder().withInt(i).build();
  }

  static DeviceAttribute string(String s) {
    return new DeviceAttributeBuilder().withString(s).build();
  }

  static DeviceAttribute version(String v) {
    return new DeviceAttributeBuilder().withVersion(v).build();
  }

  static DeviceCapacity quantity(String q) {
    return new DeviceCapacityBuilder().withValue(new Quantity(q)).build();
  }

  static final String DRA = "dra.example.com";

  static Stream<Case> cases() {
    Map<String, DeviceAttribute> all = new LinkedHashMap<>();
    all.put("bool", bool(true));
    all.put("int", integer(1));
    all.put("string", string("fish"));
    all.put("version", version("1.0.0"));
    Map<String, DeviceAttribute> many = Map.of("a", bool(true), "b", bool(true), "c", bool(true));
    Map<String, DeviceAttribute> expensive = new HashMap<>();
    for (int i = 0; i < 32; i++) {
      String suffix = "-" + i;
      expensive.put(DRA + "/" + "x".repeat(64 - suffix.length()) + suffix, string("abc"));
    }
    String nested = "int('1'.find('[0-9]*')) < 100";
    for (String v : List.of("z5", "z4", "z3", "z2", "z", "y", "x")) {
      nested = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(" + v + ", " + nested + ")";
    }
    return Stream.of(
        matches("true", "true"),
        doesNotMatch("false", "false"),
        compileError("a syntax error does not compile", "?!", "Syntax error"),
        compileError(
            "an int result does not compile",
            "1",
            "must evaluate to bool or the unknown type, not int"),
        compileError(
            "a field the device does not have does not compile",
            "device.allowMultipleAllocations == true",
            "undefined field 'allowMultipleAllocations'"),
        matchError(
            "an attribute looked up as a field that is not there is a runtime error",
            "device.attributes[\"no-such-domain\"].noSuchAttr.isGreaterThan(quantity(\"0\"))",
            "no such key: noSuchAttr"),
        matchError(
            "an attribute looked up by index that is not there is a runtime error",
            "device.attributes[\"no-such-domain\"][\"noSuchAttr\"].isGreaterThan(quantity(\"0\"))",
            "no such key: noSuchAttr"),
        doesNotMatch(
            "a domain without attributes is not in them",
            "\"no-such-domain\" in device.attributes"),
        on(
            matches(
                "a domain with attributes is in them", "\"dra.example.com\" in device.attributes"),
            "",
            Map.of("dra.example.com/something", bool(true)),
            Map.of()),
        matches("the driver of a device without one is empty", "device.driver == \"\""),
        on(
            matches("the driver is the device's", "device.driver == \"dra.example.com\""),
            DRA,
            Map.of(),
            Map.of()),
        on(
            matches(
                "an attribute without a domain is in the driver's domain",
                "device.attributes[\"dra.example.com\"].name"),
            DRA,
            Map.of("name", bool(true)),
            Map.of()),
        on(
            matches(
                "an attribute is found by index too",
                "device.attributes[\"dra.example.com\"][\"name\"]"),
            DRA,
            Map.of("name", bool(true)),
            Map.of()),
        on(
            matches(
                "cel.bind names a domain once",
                "cel.bind(dra, device.attributes[\"dra.example.com\"], dra.name)"),
            DRA,
            Map.of("name", bool(true)),
            Map.of()),
        on(
            matches(
                "a qualified attribute is in its own domain",
                "device.attributes[\"other.example.com\"].name"),
            DRA,
            Map.of("other.example.com/name", bool(true)),
            Map.of()),
        on(
            matches("an int attribute compares", "device.attributes[\"dra.example.com\"].name > 0"),
            DRA,
            Map.of("name", integer(1)),
            Map.of()),
        on(
            matches(
                "a string attribute compares",
                "device.attributes[\"dra.example.com\"].name == \"fish\""),
            DRA,
            Map.of("name", string("fish")),
            Map.of()),
        on(
            matches(
                "a version attribute is a semver",
                "device.attributes[\"dra.example.com\"].name.isGreaterThan(semver(\"0.0.1\"))"),
            DRA,
            Map.of("name", version("1.0.0")),
            Map.of()),
        on(
            matches(
                "semver normalises a v prefix when asked",
                "device.attributes[\"dra.example.com\"].name.isGreaterThan(semver(\"v0.0.1\", true))"
                    + " && isSemver(\"v1.0.0\", true)"),
            DRA,
            Map.of("name", version("1.0.0")),
            Map.of()),
        on(
            matches(
                "a capacity is a quantity",
                "device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))"),
            DRA,
            Map.of(),
            Map.of("name", quantity("1Mi"))),
        on(
            matches(
                "a capacity checked for first is compared",
                "\"name\" in device.capacity[\"dra.example.com\"] &&"
                    + " device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))"),
            DRA,
            Map.of(),
            Map.of("name", quantity("1Mi"))),
        matches(
            "a capacity checked for and absent short-circuits",
            "!(\"name\" in device.capacity[\"dra.example.com\"]) ||"
                + " device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))"),
        on(
            matches(
                "every kind of value at once",
                "device.capacity[\"dra.example.com\"].quantity.isGreaterThan(quantity(\"1Ki\")) &&"
                    + " device.attributes[\"dra.example.com\"].bool &&"
                    + " device.attributes[\"dra.example.com\"].int > 0 &&"
                    + " device.attributes[\"dra.example.com\"].string == \"fish\" &&"
                    + " device.attributes[\"dra.example.com\"].version.isGreaterThan(semver(\"0.0.1\")) &&"
                    + " device.capacity[\"dra.example.com\"][\"quantity\"].isGreaterThan(quantity(\"1Ki\")) &&"
                    + " device.attributes[\"dra.example.com\"][\"bool\"] &&"
                    + " device.attributes[\"dra.example.com\"][\"int\"] > 0 &&"
                    + " device.attributes[\"dra.example.com\"][\"string\"] == \"fish\" &&"
                    + " device.attributes[\"dra.example.com\"][\"version\"].isGreaterThan(semver(\"0.0.1\"))"),
            DRA,
            all,
            Map.of("quantity", quantity("1Mi"))),
        on(
            matches(
                "several attributes",
                "device.attributes[\"dra.example.com\"].a && device.attributes[\"dra.example.com\"].b"
                    + " && device.attributes[\"dra.example.com\"].c"),
            DRA,
            many,
            Map.of()),
        on(
            matches(
                "the attribute domains can be iterated",
                "device.attributes.exists_one(x, x == \"dra.example.com\")"),
            DRA,
            Map.of("services", string("some_example_value")),
            Map.of()),
        on(
            matches(
                "the attributes of a domain can be iterated",
                "device.attributes[\"dra.example.com\"].exists_one(x, x == \"services\")"),
            DRA,
            Map.of("services", string("some_example_value")),
            Map.of()),
        on(
            matches(
                "string functions apply to attributes",
                "device.attributes[\"dra.example.com\"].services.split(\"example\").size() >= 2"),
            DRA,
            Map.of("services", string("some_example_value")),
            Map.of()),
        on(
            matches(
                "regular expressions apply to attributes",
                "device.attributes[\"dra.example.com\"].services.matches(\"[^a]?sym\")"),
            DRA,
            Map.of("services", string("asymetric")),
            Map.of()),
        on(
            matches(
                "the capacity domains can be iterated",
                "device.capacity.exists_one(x, x == \"dra.example.com\")"),
            DRA,
            Map.of(),
            Map.of("memory", quantity("1Mi"))),
        on(
            matches(
                "the capacities of a domain can be iterated",
                "device.capacity[\"dra.example.com\"].exists_one(x, x == \"memory\")"),
            DRA,
            Map.of(),
            Map.of("memory", quantity("1Mi"))),
        on(
            matchError(
                "a runaway expression stops at the cost limit",
                nested,
                "actual cost limit exceeded"),
            DRA,
            expensive,
            Map.of()),
        on(
            matchError(
                "a version attribute that is no semver fails every selector",
                "true",
                "attribute name: parse semantic version: "),
            DRA,
            Map.of("name", version("01.0")),
            Map.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void evaluatesAsUpstream(Case c) {
    CompiledSelector s = DeviceSelectors.compile(c.expression());
    if (c.compileError() != null) {
      assertThat(s.error()).contains(c.compileError());
      return;
    }
    assertThat(s.error()).isNull();
    CelDevice device = CelDevice.of(c.driver(), c.attributes(), c.capacity());
    if (c.matchError() != null) {
      assertThatThrownBy(() -> s.matches(device))
          .isInstanceOf(SelectorException.class)
          .hasMessageContaining(c.matchError());
      return;
    }
    assertThat(s.matches(device)).isEqualTo(c.match());
  }

  @Test
  void aCompileErrorIsWordedAsCelGoWordsIt() {
    assertThat(DeviceSelectors.compile("device.foo").error())
        .isEqualTo(
            "compilation failed: ERROR: <input>:1:7: undefined field 'foo'\n"
                + " | device.foo\n"
                + " | ......^");
  }

  @Test
  void quantitiesCompareByValue() {
    CelDevice device = CelDevice.of(DRA, Map.of(), Map.of("memory", quantity("1Gi")));
    for (String expr :
        List.of(
            "device.capacity[\"dra.example.com\"].memory == quantity(\"1024Mi\")",
            "device.capacity[\"dra.example.com\"].memory.compareTo(quantity(\"1G\")) > 0",
            "device.capacity[\"dra.example.com\"].memory.add(1).isGreaterThan(quantity(\"1Gi\"))",
            "quantity(\"1.5\").isInteger() == false && quantity(\"2k\").asInteger() == 2000",
            "isQuantity(\"10Gi\") && !isQuantity(\"ten\")")) {
      assertThat(DeviceSelectors.compile(expr).matches(device)).as(expr).isTrue();
    }
  }

  @Test
  void versionsCompareByPrecedence() {
    CelDevice device = CelDevice.of(DRA, Map.of("v", version("1.2.3-rc.1")), Map.of());
    for (String expr :
        List.of(
            "device.attributes[\"dra.example.com\"].v.isLessThan(semver(\"1.2.3\"))",
            "device.attributes[\"dra.example.com\"].v.isGreaterThan(semver(\"1.2.3-beta.2\"))",
            "device.attributes[\"dra.example.com\"].v.major() == 1",
            "semver(\"1.0.0+build\") == semver(\"1.0.0\")",
            "!isSemver(\"1.0\") && isSemver(\"1.0\", true)")) {
      assertThat(DeviceSelectors.compile(expr).matches(device)).as(expr).isTrue();
    }
  }
}
