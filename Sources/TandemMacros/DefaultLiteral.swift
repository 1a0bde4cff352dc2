import SwiftSyntax

/// What a property's default value is, as far as its spelling tells: a literal gives the
/// property's type when none is written, and a literal or an enum case becomes the column's
/// `DEFAULT`. Anything else (`Date()`, `UUID()`, `Self.start`) is evaluated per record and makes no
/// `DEFAULT`.
struct DefaultLiteral {
  /// The Swift type the literal has on its own, if it is a literal.
  var inferredType: TypeSyntax?
  /// Whether the value is the same for every record and so can be the column `DEFAULT`.
  var isConstant: Bool

  init(expression: ExprSyntax) {
    if let string = expression.as(StringLiteralExprSyntax.self) {
      inferredType = "Swift.String"
      isConstant = StringLiteralText.isConstant(string)
    } else if let number = Self.numberType(expression) {
      inferredType = number
      isConstant = true
    } else if let negated = expression.as(PrefixOperatorExprSyntax.self), negated.operator.text == "-",
      let number = Self.numberType(negated.expression)
    {
      inferredType = number
      isConstant = true
    } else if expression.is(BooleanLiteralExprSyntax.self) {
      inferredType = "Swift.Bool"
      isConstant = true
    } else if expression.is(NilLiteralExprSyntax.self) {
      inferredType = nil
      isConstant = true
    } else if let member = expression.as(MemberAccessExprSyntax.self), member.base == nil,
      member.declName.argumentNames == nil
    {
      // `.medium`: an enum case (or a static constant) of the property's type.
      inferredType = nil
      isConstant = true
    } else {
      inferredType = nil
      isConstant = false
    }
  }

  private static func numberType(_ expression: ExprSyntax) -> TypeSyntax? {
    if expression.is(IntegerLiteralExprSyntax.self) { return "Swift.Int" }
    if expression.is(FloatLiteralExprSyntax.self) { return "Swift.Double" }
    return nil
  }
}
