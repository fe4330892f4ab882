package io.schedext.plugins.dynamicresources.cel;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.CelTypes;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import dev.cel.runtime.CelStandardFunctions;
import dev.cel.runtime.CelStandardFunctions.StandardFunction;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.RuntimeHelpers;
import dev.cel.runtime.standard.InOperator.InOverload;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Compiles device selectors, the CEL expressions of DeviceClasses and requests, in the environment
 * kube-scheduler compiles them in (upstream's {@code dynamic-resource-allocation/cel}): one
 * variable, {@code device}, of type {@code kubernetes.DRADevice} with {@code driver} (string),
 * {@code attributes} and {@code capacity} (domain to name to value); the standard library and
 * macros, the string, set, list, optional, binding ({@code cel.bind}) and two-variable
 * comprehension extensions, and the Kubernetes quantity, semver, regex and list functions. An
 * expression must evaluate to bool (or dyn). Compiled selectors are kept (most recently used first,
 * {@value #CACHE_SIZE} of them), so a class's selectors compile once, not once per pod.
 * Thread-safe.
 */
public final class DeviceSelectors {

  /** How many compiled expressions are kept. */
  static final int CACHE_SIZE = 256;

  /** The runtime cost an evaluation may not exceed ({@code CELSelectorExpressionMaxCost}). */
  static final long COST_LIMIT = 1_000_000;

  private static final Environment ENV = new Environment();

  private final Map<String, CompiledSelector> cache =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, CompiledSelector> eldest) {
          return size() > CACHE_SIZE;
        }
      };

  /** The selector for {@code expression}, compiled now or found compiled. */
  public CompiledSelector getOrCompile(String expression) {
    synchronized (cache) {
      CompiledSelector c = cache.get(expression);
      if (c != null) {
        return c;
      }
    }
    CompiledSelector compiled = compile(expression);
    synchronized (cache) {
      CompiledSelector raced = cache.putIfAbsent(expression, compiled);
      return raced == null ? compiled : raced;
    }
  }

  /** Compiles {@code expression} without the cache. */
  public static CompiledSelector compile(String expression) {
    CelAbstractSyntaxTree ast;
    try {
      ast = ENV.compiler.parse(expression).getAst();
    } catch (CelValidationException e) {
      return CompiledSelector.failed(expression, "compilation failed: " + syntaxErrors(e));
    }
    try {
      ast = ENV.compiler.check(ast).getAst();
    } catch (CelValidationException e) {
      return CompiledSelector.failed(expression, "compilation failed: " + e.getMessage());
    }
    CelType out = ast.getResultType();
    if (!out.equals(SimpleType.BOOL) && !out.equals(SimpleType.DYN)) {
      return CompiledSelector.failed(
          expression, "must evaluate to bool or the unknown type, not " + CelTypes.format(out));
    }
    try {
      return CompiledSelector.compiled(expression, ENV.runtime.createProgram(ast));
    } catch (CelEvaluationException e) {
      return CompiledSelector.failed(expression, "program instantiation failed: " + e.getMessage());
    }
  }

  /**
   * The parser's errors as cel-go words them: the grammar's own complaints ({@code mismatched input
   * ...}) carry a {@code Syntax error: } prefix there.
   */
  private static String syntaxErrors(CelValidationException e) {
    StringBuilder out = new StringBuilder();
    for (String line : e.getMessage().split("\n", -1)) {
      if (out.length() > 0) {
        out.append('\n');
      }
      java.util.regex.Matcher m = ERROR_LINE.matcher(line);
      if (m.matches() && GRAMMAR_ERROR.matcher(m.group(2)).lookingAt()) {
        out.append(m.group(1)).append("Syntax error: ").append(m.group(2));
      } else {
        out.append(line);
      }
    }
    return out.toString();
  }

  private static final java.util.regex.Pattern ERROR_LINE =
      java.util.regex.Pattern.compile("(ERROR: <input>:\\d+:\\d+: )(.*)");
  private static final java.util.regex.Pattern GRAMMAR_ERROR =
      java.util.regex.Pattern.compile(
          "extraneous input|mismatched input|no viable alternative|missing |token recognition");

  /** The compiler and runtime, built once: building them costs milliseconds. */
  private static final class Environment {
    private final CelCompiler compiler;
    private final CelRuntime runtime;

    Environment() {
      CelOptions options =
          CelOptions.current()
              .enableHeterogeneousNumericComparisons(true)
              .enableOptionalSyntax(true)
              .build();
      MapType attributes =
          MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, SimpleType.DYN));
      MapType capacity =
          MapType.create(
              SimpleType.STRING, MapType.create(SimpleType.STRING, KubernetesLibrary.QUANTITY));
      StructType device =
          StructType.create(
              "kubernetes.DRADevice",
              ImmutableSet.of("driver", "attributes", "capacity"),
              field ->
                  switch (field) {
                    case "driver" -> Optional.of(SimpleType.STRING);
                    case "attributes" -> Optional.of(attributes);
                    case "capacity" -> Optional.of(capacity);
                    default -> Optional.empty();
                  });
      CelTypeProvider types =
          new CelTypeProvider() {
            @Override
            public ImmutableList<CelType> types() {
              return ImmutableList.of(device, KubernetesLibrary.QUANTITY, KubernetesLibrary.SEMVER);
            }

            @Override
            public Optional<CelType> findType(String name) {
              return types().stream().filter(t -> t.name().equals(name)).findFirst();
            }
          };
      this.compiler =
          CelCompilerFactory.standardCelCompilerBuilder()
              .setOptions(options)
              .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
              .setTypeProvider(types)
              .addVar("device", device)
              .addLibraries(
                  CelExtensions.strings(),
                  CelExtensions.bindings(),
                  CelExtensions.optional(),
                  CelExtensions.sets(options),
                  CelExtensions.lists(),
                  CelExtensions.comprehensions())
              .addFunctionDeclarations(KubernetesLibrary.declarations())
              .build();
      RuntimeEquality equality = RuntimeEquality.create(RuntimeHelpers.create(), options);
      this.runtime =
          CelRuntimeFactory.standardCelRuntimeBuilder()
              .setOptions(options)
              .setStandardEnvironmentEnabled(false)
              // "in" on device.attributes and device.capacity sees only the domains the device
              // has; the lookup of any other domain still gives an empty map (DomainMap).
              .setStandardFunctions(
                  CelStandardFunctions.newBuilder()
                      .filterFunctions(
                          (fn, overload) ->
                              !(fn == StandardFunction.IN && overload == InOverload.IN_MAP))
                      .build())
              .addFunctionBindings(
                  CelFunctionBinding.from(
                      "in_map",
                      Object.class,
                      Map.class,
                      (Object key, Map map) ->
                          map instanceof DomainMap d ? d.has(key) : equality.inMap(map, key)))
              .addLibraries(
                  CelExtensions.strings(),
                  CelExtensions.optional(),
                  CelExtensions.sets(options),
                  CelExtensions.lists(),
                  CelExtensions.comprehensions())
              .addFunctionBindings(KubernetesLibrary.bindings())
              .build();
    }
  }
}
