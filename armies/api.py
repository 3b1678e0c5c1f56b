"""REST endpoints for catalogues, army lists and the public list validator.

One view per operation; each has its input and output serializers. Access is
decided by ``armies.permissions``; a list that is not yours answers 404, so its
existence does not leak.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.parsers import FormParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from accounts.models import User
from armies import selectors
from armies import validation as v
from armies.blocs import BLOC_CHOICES
from armies.forms import CATALOGUE_UPLOAD
from armies.list_intake import ListIntake, list_read
from armies.models import ArmyList, Catalogue, CatalogueImport
from armies.permissions import campaigns_for_lists, can_import_catalogue
from armies.services import army_lists as lists
from armies.services.catalogue_import import MAX_UPLOAD_FILES, catalogue_import_start
from armies.validation import limits
from armies.validation.listformat import army_list_schema
from armies.validators import validate_name
from core.fields import BoundedListField
from core.openapi import MAX_ID, openapi_schema
from core.parsers import BoundedJSONParser, BoundedMultiPartParser, check_storable


@extend_schema_field(openapi_schema(army_list_schema()), component_name="ArmyListDocument")
class ArmyListDocumentField(serializers.JSONField):
    """A list in the JSON list format; the format's JSON Schema is what the OpenAPI schema shows."""

    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        check_storable(value)
        return value


class CatalogueOutput(serializers.ModelSerializer[Catalogue]):
    unit_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Catalogue
        fields = ["id", "name", "version", "source", "blocs", "unit_count", "updated_at"]


class UnitOutput(serializers.Serializer[Any]):
    key = serializers.CharField()
    name = serializers.CharField()
    bloc = serializers.CharField()
    faction = serializers.CharField(source="faction.key", allow_null=True, default=None)
    unit_type = serializers.CharField()
    armour = serializers.IntegerField()
    ap = serializers.IntegerField()
    damage = serializers.IntegerField()
    model_count = serializers.IntegerField()
    move = serializers.IntegerField(allow_null=True)
    march = serializers.IntegerField(allow_null=True)
    hero = serializers.BooleanField()
    mercenary = serializers.BooleanField()
    capturable = serializers.BooleanField()
    strongpoint_unit = serializers.BooleanField()
    skills = serializers.ListField(child=serializers.DictField())
    weapons = serializers.ListField(child=serializers.DictField())


class CatalogueListApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=CatalogueOutput(many=True), operation_id="catalogues_list")
    def get(self, request: Request) -> Response:
        return Response(CatalogueOutput(selectors.catalogues_for_listing(), many=True).data)


class CatalogueUnitsApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter(name, str) for name in ("search", "bloc", "unit_type", "faction")],
        responses=UnitOutput(many=True),
        operation_id="catalogue_units",
    )
    def get(self, request: Request, catalogue_id: int) -> Response:
        catalogue = get_object_or_404(Catalogue, pk=catalogue_id)
        q = request.query_params
        units = selectors.catalogue_units(
            catalogue=catalogue, search=q.get("search", ""), bloc=q.get("bloc", ""),
            unit_type=q.get("unit_type", ""), faction=q.get("faction", ""),
        )  # fmt: skip
        return Response(UnitOutput(units, many=True).data)


class ImportOutput(serializers.ModelSerializer[CatalogueImport]):
    class Meta:
        model = CatalogueImport
        fields = [
            "id",
            "status",
            "progress",
            "stage",
            "catalogue",
            "summary",
            "error",
            "created_at",
            "finished_at",
        ]


class CatalogueFilesParser(BoundedMultiPartParser):
    max_files = MAX_UPLOAD_FILES


class CatalogueImportStartApi(APIView):
    parser_classes = [CatalogueFilesParser, FormParser]
    upload_bound = CATALOGUE_UPLOAD

    @extend_schema(
        request={"multipart/form-data": inline_serializer("CatalogueUpload", {"files": BoundedListField(
            child=serializers.FileField(), max_length=MAX_UPLOAD_FILES)})},
        responses={202: ImportOutput},
        operation_id="catalogue_import_start",
    )  # fmt: skip
    def post(self, request: Request) -> Response:
        if not can_import_catalogue(request.user):
            raise PermissionDenied("only staff may import catalogues")
        assert isinstance(request.user, User)
        with transaction.atomic():
            job = catalogue_import_start(files=request.FILES.getlist("files"), user=request.user)
        return Response(ImportOutput(job).data, status=status.HTTP_202_ACCEPTED)


class CatalogueImportStatusApi(APIView):
    @extend_schema(responses=ImportOutput, operation_id="catalogue_import_status")
    def get(self, request: Request, import_id: str) -> Response:
        if not can_import_catalogue(request.user):
            raise PermissionDenied("only staff may see catalogue imports")
        return Response(ImportOutput(get_object_or_404(CatalogueImport, pk=import_id)).data)


# --------------------------------------------------------------------------- army lists


class ArmyListOutput(serializers.ModelSerializer[ArmyList]):
    catalogue: serializers.PrimaryKeyRelatedField[Catalogue] = serializers.PrimaryKeyRelatedField(
        read_only=True
    )

    content = ArmyListDocumentField(read_only=True)

    class Meta:
        model = ArmyList
        fields = [
            "id",
            "name",
            "bloc",
            "faction",
            "points_limit",
            "role",
            "catalogue",
            "content",
            "updated_at",
        ]


class ArmyListCreateInput(serializers.Serializer[Any]):
    catalogue = serializers.PrimaryKeyRelatedField(queryset=Catalogue.objects.all())
    name = serializers.CharField(max_length=limits.NAME_MAX_LENGTH, validators=[validate_name])
    bloc = serializers.CharField(max_length=limits.BLOC_MAX_LENGTH)
    faction = serializers.CharField(
        max_length=limits.KEY_MAX_LENGTH, required=False, allow_blank=True, allow_null=True
    )
    points_limit = serializers.IntegerField(
        min_value=limits.POINTS_LIMIT_MIN, max_value=limits.POINTS_LIMIT_MAX
    )
    role = serializers.ChoiceField(choices=ArmyList.Role.choices, required=False, allow_null=True)


def owned_list(request: Request, pk: int, *, change: bool) -> ArmyList:
    army_list = selectors.army_list_for_actor(user=request.user, pk=pk, change=change)
    if army_list is None:
        raise NotFound("no such army list")
    return army_list


def _user(request: Request) -> User:
    assert isinstance(request.user, User)
    return request.user


class ArmyListCollectionApi(APIView):
    @extend_schema(responses=ArmyListOutput(many=True), operation_id="army_lists_list")
    def get(self, request: Request) -> Response:
        return Response(ArmyListOutput(selectors.army_lists_for_owner(owner=_user(request)), many=True).data)

    @extend_schema(
        request=ArmyListCreateInput, responses={201: ArmyListOutput}, operation_id="army_lists_create"
    )
    def post(self, request: Request) -> Response:
        data = ArmyListCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        army_list = lists.army_list_create(owner=_user(request), **data.validated_data)
        return Response(ArmyListOutput(army_list).data, status=status.HTTP_201_CREATED)


_LIST_HELP = (
    'a list in the JSON list format, a New Recruit export ({"roster": ...}), or a string: a '
    "BattleScribe roster's XML (.ros) or a .rosz file in base64"
)
_BLOC_HELP = "the bloc a roster of mercenaries alone fights for (a roster does not say it)"


def read_list(
    data: Any, *, catalogue: Catalogue | None, bloc: str | None, campaign_ids: tuple[int, ...] = ()
) -> ListIntake:
    """Any list a request sends, read as the pages read it; errors are nested under ``list``."""
    try:
        return list_read(data=data, catalogue=catalogue, bloc=bloc, campaign_ids=campaign_ids)
    except v.ListFormatError as exc:
        if exc.field == "bloc":  # the roster's own bloc is missing: the request's bloc field is asked for
            raise
        raise exc.with_field_prefix("list") from exc


class ArmyListImportInput(serializers.Serializer[Any]):
    catalogue = serializers.PrimaryKeyRelatedField(queryset=Catalogue.objects.all(), required=False)
    campaign = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        help_text="A campaign the caller organises or plays in (its id): the list is read with that "
        "campaign's own platoon charts too, against its catalogue when none is given.",
    )
    list = ArmyListDocumentField(help_text=_LIST_HELP)
    bloc = serializers.ChoiceField(choices=BLOC_CHOICES, required=False, help_text=_BLOC_HELP)


class ArmyListImportOutput(ArmyListOutput):
    warnings = serializers.SerializerMethodField(help_text="what reading a roster changed or left out")

    class Meta(ArmyListOutput.Meta):
        fields = [*ArmyListOutput.Meta.fields, "warnings"]

    @extend_schema_field(BoundedListField(child=serializers.DictField(), max_length=limits.MAX_ENTRIES))
    def get_warnings(self, army_list: ArmyList) -> list[dict[str, str]]:
        return [warning.to_dict() for warning in self.context.get("warnings", ())]


def _for_campaign(request: Request, data: Mapping[str, Any]) -> tuple[Catalogue | None, tuple[int, ...]]:
    """The catalogue asked for (else the campaign's) and the campaign a list is read for, one the caller
    takes part in: any other id, existing or not, is refused in the same words."""
    catalogue: Catalogue | None = data.get("catalogue")
    pk = data.get("campaign")
    if pk is None:
        return catalogue, ()
    found = campaigns_for_lists(request.user).get(pk)
    if found is None:
        raise ValidationError({"campaign": ["you organise or play in no campaign of this id"]})
    name, catalogue_id = found
    if catalogue is not None and catalogue.pk != catalogue_id:
        raise ValidationError({"campaign": [f"{name} is played with another catalogue"]})
    return catalogue or Catalogue.objects.filter(pk=catalogue_id).first(), (pk,)


class ArmyListImportApi(APIView):
    @extend_schema(
        request=ArmyListImportInput, responses={201: ArmyListImportOutput}, operation_id="army_lists_import"
    )
    def post(self, request: Request) -> Response:
        data = ArmyListImportInput(data=request.data)
        data.is_valid(raise_exception=True)
        chosen, campaign_ids = _for_campaign(request, data.validated_data)
        intake = read_list(
            data.validated_data["list"],
            catalogue=chosen,
            bloc=data.validated_data.get("bloc"),
            campaign_ids=campaign_ids,
        )
        document = intake.document
        catalogue = chosen or intake.catalogue or selectors.catalogue_for_list_document(document=document)
        if catalogue is None:
            raise ValidationError({"catalogue": ["no catalogue has been imported yet"]})
        try:
            army_list = lists.army_list_import(owner=_user(request), document=document, catalogue=catalogue)
        except lists.ArmyListError as exc:
            raise exc.with_field_prefix("list") from exc
        output = ArmyListImportOutput(army_list, context={"warnings": intake.warnings})
        return Response(output.data, status=status.HTTP_201_CREATED)


class ArmyListDetailApi(APIView):
    @extend_schema(responses=ArmyListOutput, operation_id="army_lists_retrieve")
    def get(self, request: Request, pk: int) -> Response:
        return Response(ArmyListOutput(owned_list(request, pk, change=False)).data)

    @extend_schema(request=inline_serializer("ArmyListReplace", {"content": ArmyListDocumentField()}),
                   responses=ArmyListOutput, operation_id="army_lists_replace")  # fmt: skip
    def put(self, request: Request, pk: int) -> Response:
        army_list = owned_list(request, pk, change=True)
        body = request.data if isinstance(request.data, dict) else {}
        if "content" not in body:
            raise ValidationError({"content": ["this field is required"]})
        try:
            lists.army_list_replace(army_list=army_list, document=body["content"])
        except lists.ArmyListError as exc:
            raise exc.with_field_prefix("content") from exc
        return Response(ArmyListOutput(army_list).data)

    @extend_schema(responses={204: None}, operation_id="army_lists_delete")
    def delete(self, request: Request, pk: int) -> Response:
        lists.army_list_delete(army_list=owned_list(request, pk, change=True))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ArmyListDuplicateApi(APIView):
    @extend_schema(request=None, responses={201: ArmyListOutput}, operation_id="army_lists_duplicate")
    def post(self, request: Request, pk: int) -> Response:
        copy = lists.army_list_duplicate(
            army_list=owned_list(request, pk, change=False), owner=_user(request)
        )
        return Response(ArmyListOutput(copy).data, status=status.HTTP_201_CREATED)


VerdictOutput = inline_serializer(
    "Verdict",
    {
        "ok": serializers.BooleanField(),
        "totals": serializers.DictField(),
        "problems": serializers.ListField(child=serializers.DictField()),
        "terms": serializers.DictField(help_text="what the list was checked under, every term resolved"),
        "overrides": serializers.ListField(
            child=serializers.DictField(),
            help_text="terms that replaced what the list says: field, listed, applied",
        ),
    },
)


class ArmyListVerdictApi(APIView):
    @extend_schema(responses=VerdictOutput, operation_id="army_lists_verdict")
    def get(self, request: Request, pk: int) -> Response:
        verdict = selectors.army_list_verdict(army_list=owned_list(request, pk, change=False))
        return Response(verdict.to_dict())


class ArmyListExportApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "as",
                str,
                enum=["json", "text", "rosz"],
                description="json (default), text, or rosz: a BattleScribe roster file (application/zip)",
            )
        ],
        responses={200: OpenApiTypes.OBJECT},
        operation_id="army_lists_export",
    )
    def get(self, request: Request, pk: int) -> Response | HttpResponse:
        army_list = owned_list(request, pk, change=False)
        wanted = request.query_params.get("as")
        if wanted == "text":
            return Response({"text": selectors.army_list_text(army_list=army_list)})
        if wanted == "rosz":
            name = f"{slugify(army_list.name) or 'army-list'}-{army_list.pk}"
            response = HttpResponse(
                selectors.army_list_rosz(army_list=army_list, filename=f"{name}.ros"),
                content_type="application/zip",
            )
            response["Content-Disposition"] = f'attachment; filename="{name}.rosz"'
            return response
        return Response(army_list.content)


class ValidateThrottle(AnonRateThrottle):
    scope = "validate"


@extend_schema_field({"type": "string", "pattern": f"^({'|'.join(v.types.FORTIFICATION_KINDS)})$"})
class _FortificationKindField(serializers.CharField):
    """A fortification kind. A pattern, not an enum: the schema names every enum after its field,
    and two lists sharing the kinds would give one choice set two names. The terms reader checks."""


TermsInput = inline_serializer(
    "ValidateTerms",
    {
        "points_limit": serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=limits.POINTS_LIMIT_MIN,
            max_value=limits.POINTS_LIMIT_MAX,
        ),
        "role": serializers.ChoiceField(choices=v.types.ROLES, required=False, allow_null=True),
        "granted_fortifications": BoundedListField(
            child=_FortificationKindField(),
            required=False,
            allow_null=True,
            max_length=limits.MAX_GRANTED_FORTIFICATIONS,
        ),
        "fortification_purchases": BoundedListField(
            child=_FortificationKindField(),
            required=False,
            allow_null=True,
            max_length=len(v.types.FORTIFICATION_KINDS),
            help_text="kinds the mission lets this side buy; null or absent: any kind, as the role allows",
        ),
        "rtz": serializers.BooleanField(
            required=False, allow_null=True, help_text="RtZ special rules; default on"
        ),
        "reserve_limit": serializers.IntegerField(
            required=False, allow_null=True, min_value=0, max_value=limits.RESERVE_LIMIT_MAX
        ),
        "catalogue_version": serializers.CharField(
            required=False, allow_null=True, max_length=limits.CATALOGUE_VERSION_MAX_LENGTH
        ),
    },
)


class ValidateListApi(APIView):
    """Check a list in the JSON list format, or a BattleScribe or New Recruit roster; no account needed.

    ``terms`` (optional; the list then goes under ``list``) are campaign terms: they
    replace the list's points limit, role and catalogue version and add what a list
    cannot say (docs/validator-terms.md). The schema above documents them; the one
    reader that enforces them is ``armies.validation.terms_from_mapping``.
    """

    permission_classes = [permissions.AllowAny]
    throttle_classes = [ValidateThrottle]
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        request=inline_serializer(
            "ValidateRequest",
            {
                "list": ArmyListDocumentField(help_text=_LIST_HELP),
                "catalogue": serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID),
                "bloc": serializers.ChoiceField(choices=BLOC_CHOICES, required=False, help_text=_BLOC_HELP),
                "terms": TermsInput,
            },
        ),
        responses=VerdictOutput,
        operation_id="army_list_validate",
    )
    def post(self, request: Request) -> Response:
        body = request.data if isinstance(request.data, dict) else {}
        document = body.get("list", body)
        bloc = body.get("bloc") if "list" in body else None
        if bloc is not None and (
            not isinstance(bloc, str) or bloc not in {choice for choice, _n in BLOC_CHOICES}
        ):
            raise ValidationError({"bloc": [f"must be one of {', '.join(c for c, _n in BLOC_CHOICES)}"]})
        catalogue_id = body.get("catalogue")
        if catalogue_id is not None and (
            isinstance(catalogue_id, bool)
            or not isinstance(catalogue_id, int)
            or not 1 <= catalogue_id <= MAX_ID
        ):
            raise ValidationError({"catalogue": ["must be a catalogue id (a whole number of at least 1)"]})
        terms = None
        if "terms" in body:
            if "list" not in body:
                raise ValidationError({"list": ['send the list under "list" when you send terms']})
            try:
                terms = v.terms_from_mapping(body["terms"]) if body["terms"] is not None else None
            except v.TermsError as exc:
                raise exc.with_field_prefix("terms") from exc
        chosen = Catalogue.objects.filter(pk=catalogue_id).first() if catalogue_id is not None else None
        intake = read_list(document, catalogue=chosen, bloc=bloc)
        if intake.catalogue is not None:  # a roster, matched against the catalogue asked for or the newest
            if catalogue_id is not None and chosen is None:
                raise selectors.CatalogueMissingError("no such catalogue")
            catalogue_id = intake.catalogue.pk
        try:
            checked = selectors.army_list_document_verdict(
                document=intake.document, catalogue_id=catalogue_id, terms=terms
            )
        except v.ListFormatError as exc:
            raise exc.with_field_prefix("list") from exc
        catalogue = checked.catalogue
        about = {"id": catalogue.pk, "name": catalogue.name, "version": catalogue.version}
        verdict = checked.verdict
        summary = (
            v.describe(verdict.terms, verdict.overrides) if terms is not None and verdict.terms else None
        )
        warnings = [warning.to_dict() for warning in intake.warnings]
        return Response(
            {**verdict.to_dict(), "catalogue": about, "terms_summary": summary, "import_warnings": warnings}
        )
