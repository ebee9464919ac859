import StubCore

/// The introspection types every schema has (`__Schema`, `__Type`, …) and the root's `__schema`
/// and `__type` fields: an operation may select them, and graphql-core checks what it selects
/// there as it checks the rest. They are added for checking documents only; a schema's own
/// checks and a body's do not see them.
enum GraphQLIntrospection {
    /// graphql-core 3.3's introspection types, as it prints them (descriptions left out).
    static let sdl = """
    type __Schema {
      description: String
      types: [__Type!]!
      queryType: __Type!
      mutationType: __Type
      subscriptionType: __Type
      directives(includeDeprecated: Boolean! = false): [__Directive!]!
    }
    type __Directive {
      name: String!
      description: String
      isRepeatable: Boolean!
      locations: [__DirectiveLocation!]!
      args(includeDeprecated: Boolean! = false): [__InputValue!]!
      isDeprecated: Boolean!
      deprecationReason: String
    }
    enum __DirectiveLocation {
      QUERY MUTATION SUBSCRIPTION FIELD FRAGMENT_DEFINITION FRAGMENT_SPREAD INLINE_FRAGMENT VARIABLE_DEFINITION
      FRAGMENT_VARIABLE_DEFINITION SCHEMA SCALAR OBJECT FIELD_DEFINITION ARGUMENT_DEFINITION INTERFACE UNION ENUM ENUM_VALUE
      INPUT_OBJECT INPUT_FIELD_DEFINITION DIRECTIVE_DEFINITION
    }
    type __Type {
      kind: __TypeKind!
      name: String
      description: String
      specifiedByURL: String
      fields(includeDeprecated: Boolean! = false): [__Field!]
      interfaces: [__Type!]
      possibleTypes: [__Type!]
      enumValues(includeDeprecated: Boolean! = false): [__EnumValue!]
      inputFields(includeDeprecated: Boolean! = false): [__InputValue!]
      ofType: __Type
      isOneOf: Boolean
    }
    type __Field {
      name: String!
      description: String
      args(includeDeprecated: Boolean! = false): [__InputValue!]!
      type: __Type!
      isDeprecated: Boolean!
      deprecationReason: String
    }
    type __InputValue {
      name: String!
      description: String
      type: __Type!
      defaultValue: String
      isDeprecated: Boolean!
      deprecationReason: String
    }
    type __EnumValue {
      name: String!
      description: String
      isDeprecated: Boolean!
      deprecationReason: String
    }
    enum __TypeKind { SCALAR OBJECT INTERFACE UNION ENUM INPUT_OBJECT LIST NON_NULL }
    type __Meta {
      __schema: __Schema!
      __type(name: String!): __Type
    }
    """

    /// The types read from `sdl` once (`__Meta` holds the root's two fields).
    static let types: [String: GraphQLSchema.TypeDefinition] = {
        guard case .success(let schema) = GraphQLSchema.parse(sdl, file: "introspection") else { return [:] }
        return schema.types
    }()
}

extension GraphQLSchema {
    /// The schema with the introspection types, and `__schema` and `__type` on its query type.
    func withIntrospection() -> GraphQLSchema {
        var schema = self
        let introspection = GraphQLIntrospection.types
        for (name, type) in introspection where name != "__Meta" && schema.types[name] == nil { schema.types[name] = type }
        if let root = roots["query"], let meta = introspection["__Meta"] {
            for (name, field) in meta.fields where schema.types[root]?.fields[name] == nil { schema.types[root]?.fields[name] = field }
        }
        return schema
    }
}
